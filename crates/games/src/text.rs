//! Small text helpers shared by the contest formats of every game.

/// Splits `line` at white space into tokens, each with its 1-based column, so that parse
/// errors can say where they are.
///
/// ```
/// use ply_games::text::tokens_with_columns;
/// assert_eq!(tokens_with_columns("  1 20  3"), vec![(3, "1"), (5, "20"), (9, "3")]);
/// ```
pub fn tokens_with_columns(line: &str) -> Vec<(usize, &str)> {
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
