//! Bots' order lines, parsed and validated with the original engine's message classes.

use std::fmt;

use super::geometry::Dir;

/// Why the original engine refused an order line outright ("invalid").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InvalidOrder {
    /// The first word is not `o`.
    UnknownAction,
    /// Not exactly four words.
    IncorrectlyFormatted,
    /// Row or column is not an integer.
    InvalidRowOrCol,
    /// The direction is not one of `n`, `e`, `s`, `w`.
    InvalidDirection,
    /// A second order for the same ant.
    Duplicate,
    /// No ant of this bot on that square.
    NotPlayerAnt,
    /// Row or column outside the map.
    OutOfBounds,
}

impl InvalidOrder {
    /// The engine's message, as written after `# ` in its logs.
    pub const fn message(self) -> &'static str {
        match self {
            InvalidOrder::UnknownAction => "unknown action",
            InvalidOrder::IncorrectlyFormatted => "incorrectly formatted order",
            InvalidOrder::InvalidRowOrCol => "invalid row or col",
            InvalidOrder::InvalidDirection => "invalid direction",
            InvalidOrder::Duplicate => "duplicate order",
            InvalidOrder::NotPlayerAnt => "not player ant",
            InvalidOrder::OutOfBounds => "out of bounds",
        }
    }
}

impl fmt::Display for InvalidOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

/// Why the original engine accepted but did not carry out an order ("ignored").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IgnoredOrder {
    /// The destination holds water or food.
    MoveBlocked,
}

impl fmt::Display for IgnoredOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("move blocked")
    }
}

/// One bot's orders for one turn, sorted into the engine's three classes. The lines are as
/// the engine logs them: trimmed and lowercased.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OrderReport {
    /// Orders carried out, in the bot's order.
    pub valid: Vec<String>,
    /// Orders accepted but not carried out.
    pub ignored: Vec<(String, IgnoredOrder)>,
    /// Orders refused.
    pub invalid: Vec<(String, InvalidOrder)>,
}

impl OrderReport {
    /// The lines the original writes to its `-O` output log for this turn (without the
    /// `# turn N` header): valid, then ignored, then invalid, each with `# reason`.
    pub fn log_lines(&self) -> impl Iterator<Item = String> + '_ {
        self.valid
            .iter()
            .cloned()
            .chain(self.ignored.iter().map(|(l, r)| format!("{l} # {r}")))
            .chain(self.invalid.iter().map(|(l, r)| format!("{l} # {r}")))
    }
}

/// A syntactically valid order: a square given as integers (possibly out of range) and a
/// direction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedOrder {
    /// The line, trimmed and lowercased.
    pub line: String,
    /// Row as written.
    pub row: i64,
    /// Column as written.
    pub col: i64,
    /// Direction.
    pub dir: Dir,
}

/// Python's `int()` on one word: optional sign, decimal digits, single underscores between
/// digits. Values beyond `i64` are treated as far out of bounds.
fn python_int(s: &str) -> Option<i64> {
    let (neg, digits) = match s.as_bytes().first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty()
        || digits.starts_with('_')
        || digits.ends_with('_')
        || digits.contains("__")
    {
        return None;
    }
    let mut v: i64 = 0;
    for b in digits.bytes() {
        match b {
            b'_' => {}
            b'0'..=b'9' => v = v.saturating_mul(10).saturating_add(i64::from(b - b'0')),
            _ => return None,
        }
    }
    Some(if neg { -v } else { v })
}

/// The original `parse_orders`: skips blank and `#` lines, classifies the rest.
pub fn parse_orders<S: AsRef<str>>(lines: &[S], report: &mut OrderReport) -> Vec<ParsedOrder> {
    let mut out = Vec::new();
    for raw in lines {
        let trimmed = raw.as_ref().trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let line = if trimmed
            .bytes()
            .any(|b| !b.is_ascii() || b.is_ascii_uppercase())
        {
            trimmed.to_lowercase()
        } else {
            trimmed.to_string()
        };
        // the first five words are enough to tell four from more
        let mut words = [""; 5];
        let mut count = 0;
        for w in line.split_whitespace().take(5) {
            words[count] = w;
            count += 1;
        }
        if words[0] != "o" {
            report.invalid.push((line, InvalidOrder::UnknownAction));
            continue;
        }
        if count != 4 {
            report
                .invalid
                .push((line, InvalidOrder::IncorrectlyFormatted));
            continue;
        }
        let (Some(row), Some(col)) = (python_int(words[1]), python_int(words[2])) else {
            report.invalid.push((line, InvalidOrder::InvalidRowOrCol));
            continue;
        };
        let Some(dir) = Dir::from_letter(words[3]) else {
            report.invalid.push((line, InvalidOrder::InvalidDirection));
            continue;
        };
        out.push(ParsedOrder {
            line,
            row,
            col,
            dir,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_int_accepts_what_python_does() {
        assert_eq!(python_int("12"), Some(12));
        assert_eq!(python_int("-3"), Some(-3));
        assert_eq!(python_int("+7"), Some(7));
        assert_eq!(python_int("1_0"), Some(10));
        assert_eq!(python_int("1__0"), None);
        assert_eq!(python_int("x"), None);
        assert_eq!(python_int(""), None);
        assert_eq!(python_int("-"), None);
    }

    #[test]
    fn parse_classes() {
        let mut r = OrderReport::default();
        let lines = [
            "O 1 2 N", "x 1 2 n", "o 1 2", "o a 2 n", "o 1 2 q", "# c", "",
        ];
        let ok = parse_orders(&lines, &mut r);
        assert_eq!(ok.len(), 1);
        assert_eq!(ok[0].line, "o 1 2 n");
        let kinds: Vec<_> = r.invalid.iter().map(|(_, k)| *k).collect();
        assert_eq!(
            kinds,
            [
                InvalidOrder::UnknownAction,
                InvalidOrder::IncorrectlyFormatted,
                InvalidOrder::InvalidRowOrCol,
                InvalidOrder::InvalidDirection
            ]
        );
    }
}
