//! The ranges of numeric flags shared by several commands, checked by clap while parsing,
//! so that no value reaches a shift, a multiplication or an allocation it would overflow.
//! An out-of-range value is a usage error (exit 2) that names the flag and its range.

use clap::builder::{RangedI64ValueParser, RangedU64ValueParser};

/// Milliseconds of a time limit: 1 ms to an hour.
pub fn millis() -> RangedU64ValueParser<u64> {
    RangedU64ValueParser::new().range(1..=3_600_000)
}

/// [`millis`] for flags stored as `u32`.
pub fn millis_u32() -> RangedI64ValueParser<u32> {
    RangedI64ValueParser::new().range(1..=3_600_000)
}

/// Megabytes of a memory limit: 1 MB to 1 TiB.
pub fn megabytes() -> RangedU64ValueParser<u64> {
    RangedU64ValueParser::new().range(1..=1 << 20)
}

/// A node limit of a search: 1 to 10^15.
pub fn nodes() -> RangedU64ValueParser<u64> {
    RangedU64ValueParser::new().range(1..=1_000_000_000_000_000)
}

/// Kilobytes of an output limit: 1 KB to 1 GiB.
pub fn kilobytes_flag() -> RangedU64ValueParser<u64> {
    RangedU64ValueParser::new().range(1..=1 << 20)
}

/// An output limit checked by [`kilobytes_flag`], in bytes.
pub fn kilobytes(kb: u64) -> usize {
    usize::try_from(kb << 10).unwrap_or(usize::MAX)
}

/// A fraction from 0 to 1.
pub fn fraction(text: &str) -> Result<f64, String> {
    let x: f64 = text
        .parse()
        .map_err(|_| format!("{text:?} is not a number; give a fraction from 0 to 1"))?;
    if (0.0..=1.0).contains(&x) {
        Ok(x)
    } else {
        Err(format!("{text} is not a fraction from 0 to 1"))
    }
}

/// Games played at once: 1 to 256 threads.
pub fn concurrency(text: &str) -> Result<usize, String> {
    count::<256>(text)
}

/// A count from 1 to `MAX`.
pub fn count<const MAX: usize>(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1..=MAX).contains(&n) => Ok(n),
        _ => Err(format!("{text:?}: give a whole number from 1 to {MAX}")),
    }
}
