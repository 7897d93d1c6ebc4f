//! The persistent exchange of the 2011 AI Challenge (Ants), as pure functions over bytes.
//!
//! One process plays the whole game. Each turn the referee writes the turn's text (made by
//! the game, `ply_ants`) and the bot answers with order lines ended by a line `go`. What is
//! here is the reading half: cutting what the bot wrote into lines up to `go`, as the
//! original engine did (each line stripped, `go` matched without regard to case), and
//! counting the turn's bytes against the output cap. The referee's `persistent` module
//! carries the bytes, the clock and the process; it calls [`TurnReader::take_orders`] on whatever
//! arrived.

use ply_core::{Fault, TurnOutcome};

/// What a turn's reading has gathered so far; kept by the caller between reads.
#[derive(Debug, Default)]
pub struct TurnReader {
    /// The complete order lines before `go`, stripped.
    lines: Vec<String>,
    /// Bytes of complete lines counted against the cap this turn.
    read: usize,
}

impl TurnReader {
    /// A reader for a new turn.
    pub fn new() -> TurnReader {
        TurnReader::default()
    }

    /// The order lines gathered so far (what a bot that timed out managed to send).
    pub fn lines(&self) -> &[String] {
        &self.lines
    }

    /// Takes the complete lines at the front of `buffer` (whose bytes before `from` were
    /// already scanned and hold no newline) and removes them from it. Returns the turn's
    /// orders at the first `go` (bytes after it stay in `buffer`, for the next turn), a
    /// [`Fault::OutputLimit`] once the turn's bytes, complete lines and the pending partial
    /// line together, pass `cap`, and `None` while the turn goes on.
    ///
    /// ```
    /// use ply_protocol::ai_challenge::TurnReader;
    /// let mut reader = TurnReader::new();
    /// let mut buffer = b"o 1 2 N\r\n  GO \nnext".to_vec();
    /// let orders = reader.take_orders(&mut buffer, 0, 1 << 20).unwrap().unwrap();
    /// assert_eq!(orders, ["o 1 2 N"]);
    /// assert_eq!(buffer, b"next");
    /// ```
    pub fn take_orders(
        &mut self,
        buffer: &mut Vec<u8>,
        from: usize,
        cap: usize,
    ) -> Option<TurnOutcome<Vec<String>>> {
        let mut start = 0;
        let mut scan = from.min(buffer.len());
        let mut reply = None;
        while let Some(nl) = buffer[scan..].iter().position(|&b| b == b'\n') {
            let end = scan + nl;
            self.read += end + 1 - start;
            let line = String::from_utf8_lossy(&buffer[start..end]);
            let line = line.trim();
            start = end + 1;
            scan = start;
            if line.eq_ignore_ascii_case("go") {
                reply = Some(Ok(std::mem::take(&mut self.lines)));
                break;
            }
            self.lines.push(line.to_string());
            if self.read > cap {
                break;
            }
        }
        buffer.drain(..start);
        if reply.is_none() && self.read + buffer.len() > cap {
            return Some(Err(Fault::OutputLimit));
        }
        reply
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_arrive_in_pieces_and_end_at_go() {
        let mut r = TurnReader::new();
        let mut buf = b"o 1 1 N\no 2".to_vec();
        assert_eq!(r.take_orders(&mut buf, 0, 1000), None);
        assert_eq!(r.lines(), ["o 1 1 N"]);
        assert_eq!(buf, b"o 2");
        let scanned = buf.len();
        buf.extend_from_slice(b" 2 E\ngo\no 3 3 S\n");
        let orders = r.take_orders(&mut buf, scanned, 1000).unwrap().unwrap();
        assert_eq!(orders, ["o 1 1 N", "o 2 2 E"]);
        assert_eq!(buf, b"o 3 3 S\n", "the next turn's bytes stay");
        assert!(r.lines().is_empty());
    }

    #[test]
    fn the_cap_counts_complete_and_pending_bytes() {
        let mut r = TurnReader::new();
        let mut buf = vec![b'x'; 50];
        assert_eq!(r.take_orders(&mut buf, 0, 64), None);
        buf.extend_from_slice(&[b'x'; 20]);
        assert_eq!(
            r.take_orders(&mut buf, 50, 64),
            Some(Err(Fault::OutputLimit))
        );
        let mut r = TurnReader::new();
        let mut buf = b"aaaaaaaaaa\n".repeat(10);
        assert_eq!(
            r.take_orders(&mut buf, 0, 64),
            Some(Err(Fault::OutputLimit))
        );
        // A go within the cap is the answer, whatever follows it.
        let mut r = TurnReader::new();
        let mut buf = b"go\n".to_vec();
        buf.extend_from_slice(&[b'y'; 100]);
        assert_eq!(r.take_orders(&mut buf, 0, 64), Some(Ok(Vec::new())));
    }

    #[test]
    fn go_is_matched_stripped_and_without_case_and_bad_utf8_is_kept_lossily() {
        let mut r = TurnReader::new();
        let mut buf = b"\xff\xfe o 1 1 W \t\r\n\tGo\r\n".to_vec();
        let orders = r.take_orders(&mut buf, 0, 1000).unwrap().unwrap();
        assert_eq!(orders, ["\u{fffd}\u{fffd} o 1 1 W"]);
        assert!(buf.is_empty());
    }
}
