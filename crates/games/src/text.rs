//! Small text helpers shared by the contest formats of every game.

/// The unsigned numbers in `text`, in order, whatever separates them (`(2,5)->(3,6)` gives
/// 2, 5, 3, 6): move notations of the grid games are read this way.
///
/// # Errors
/// The text of a number too large for `usize`.
///
/// ```
/// assert_eq!(ply_games::text::numbers("(2,5)->(3,6)").unwrap(), vec![2, 5, 3, 6]);
/// ```
pub fn numbers(text: &str) -> Result<Vec<usize>, &str> {
    text.split(|c: char| !c.is_ascii_digit())
        .filter(|p| !p.is_empty())
        .map(|p| p.parse().map_err(|_| p))
        .collect()
}

/// Tokens of one line, each with its 1-based column.
pub type Tokens<'a> = Vec<(usize, &'a str)>;

/// Splits `line` at white space into tokens, each with its 1-based column, so that parse
/// errors can say where they are.
///
/// ```
/// use ply_games::text::tokens_with_columns;
/// assert_eq!(tokens_with_columns("  1 20  3"), vec![(3, "1"), (5, "20"), (9, "3")]);
/// ```
pub fn tokens_with_columns(line: &str) -> Tokens<'_> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, ch) in line.char_indices() {
        match (ch.is_whitespace(), start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                out.push((s + 1, &line[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s + 1, &line[s..]));
    }
    out
}

use ply_core::{ParseStateError, Seat};

/// The non-blank lines of a contest input, read in order, so that every grid parser reports
/// problems the same way: the line and column, what was expected, what was found.
///
/// ```
/// use ply_games::text::InputLines;
/// let mut input = InputLines::new("1 0\n\n0 2\n2\n");
/// assert_eq!(input.row(2, "numbers", "row 0 of the board").unwrap().1, vec![(1, "1"), (3, "0")]);
/// let (line, tokens) = input.row(2, "numbers", "row 1 of the board").unwrap();
/// assert_eq!((line, tokens[1]), (3, (3, "2")));
/// assert_eq!(input.player_id("the board").unwrap().0.number(), 2);
/// let err = InputLines::new("1 0 0\n").row(2, "numbers", "row 0").unwrap_err();
/// assert_eq!(err.to_string(), "line 1, column 5: expected 2 numbers in row 0, found 3");
/// ```
pub struct InputLines<'a> {
    lines: std::iter::Enumerate<std::str::Lines<'a>>,
    /// The line number just past the input, where "missing" errors point.
    end: usize,
}

impl<'a> InputLines<'a> {
    /// Reads `text`.
    pub fn new(text: &'a str) -> Self {
        InputLines {
            lines: text.lines().enumerate(),
            end: text.lines().count() + 1,
        }
    }

    /// The next non-blank line and its 1-based number.
    ///
    /// # Errors
    /// At the end of the input: `expected {expected}`.
    pub fn next_line(&mut self, expected: &str) -> Result<(usize, &'a str), ParseStateError> {
        self.lines
            .find(|(_, l)| !l.trim().is_empty())
            .map(|(i, l)| (i + 1, l))
            .ok_or_else(|| ParseStateError::new(self.end, 1, format!("expected {expected}")))
    }

    /// The next non-blank line as exactly `n` tokens with their 1-based columns; `unit`
    /// names the tokens (`numbers`, `cells`) and `row` the line (`row 3 of the board`).
    ///
    /// # Errors
    /// A missing line, or a line with another number of tokens (pointing at the first extra
    /// token, or the end of a short line).
    pub fn row(
        &mut self,
        n: usize,
        unit: &str,
        row: &str,
    ) -> Result<(usize, Tokens<'a>), ParseStateError> {
        let (line_no, line) = self.next_line(&format!("{row}: {n} {unit}"))?;
        let tokens = tokens_with_columns(line);
        if tokens.len() != n {
            return Err(ParseStateError::new(
                line_no,
                tokens.get(n).map_or(line.trim_end().len() + 1, |t| t.0),
                format!("expected {n} {unit} in {row}, found {}", tokens.len()),
            ));
        }
        Ok((line_no, tokens))
    }

    /// The next non-blank line as a player id, 1 or 2, with its line and column; `after`
    /// names what comes before it in errors (`the board`).
    ///
    /// # Errors
    /// A missing line, or anything but `1` or `2`.
    pub fn player_id(&mut self, after: &str) -> Result<(Seat, usize, usize), ParseStateError> {
        let (line_no, line) = self.next_line(&format!("the player id (1 or 2) after {after}"))?;
        let column = line.len() - line.trim_start().len() + 1;
        match line.trim() {
            "1" => Ok((Seat::FIRST, line_no, column)),
            "2" => Ok((Seat::SECOND, line_no, column)),
            other => Err(ParseStateError::new(
                line_no,
                column,
                format!("unexpected {other:?}: the player id is 1 or 2"),
            )),
        }
    }
}
