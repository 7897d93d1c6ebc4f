//! `ply sort`: the real binary, in a temporary directory.

use std::process::Command;

fn ply() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ply"))
}

#[test]
fn check_passes_every_algorithm() {
    let out = ply()
        .args([
            "sort",
            "check",
            "--sizes",
            "0,1,2,50",
            "--inputs",
            "random,sawtooth",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        stdout,
        "112 of 112 cases sorted correctly (14 algorithms x 2 inputs x 4 sizes)\n"
    );
}

#[test]
fn bench_writes_csv_and_plots_and_caps_quadratic_sorts() {
    let dir = tempfile::tempdir().unwrap();
    let out = ply()
        .args(["sort", "bench", "--sizes", "10,100", "--runs", "1"])
        .args(["--inputs", "random,sorted", "--max-sort-ms", "0", "--out"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.contains("random: ns per element (thread CPU time), fastest of 1 runs (seed 1)")
    );
    assert!(stdout.contains("insertion capped from n = 100"));
    let csv = std::fs::read_to_string(dir.path().join("sort-bench.csv")).unwrap();
    // 14 algorithms x 2 inputs at n = 10; at n = 100 the 5 linearithmic ones run and the 9
    // quadratic ones (7 stack sorts, insertion, quick) are capped.
    assert_eq!(csv.lines().count(), 1 + 28 + 2 * 5 + 2 * 9);
    for input in ["random", "sorted"] {
        let svg = std::fs::read_to_string(dir.path().join(format!("sort-{input}.svg"))).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("stack-v3 (capped, n ≥ 100)"));
    }
}

#[test]
fn bad_arguments_exit_2_with_the_reason() {
    let out = ply()
        .args(["sort", "bench", "--runs", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--runs 0: give at least one run"));
    let out = ply()
        .args(["sort", "check", "--algorithms", "bogo"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown sorting algorithm \"bogo\""));
}
