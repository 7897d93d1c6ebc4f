//! Facts tic-tac-toe must satisfy (filled in below).
