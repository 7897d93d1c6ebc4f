//! Issue 22, items 1-3: the Tower of Hanoi printouts and rules of seeds 000 and 002, from
//! the command line: moves in words, the towers after each move, the k-th move, the split
//! table.

use std::process::Command;

fn ply(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "ply {args:?}: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

fn seed(name: &str) -> Option<String> {
    let path = format!(
        "{}/../../../shared/seeds/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    match std::fs::read_to_string(&path) {
        // The seeds are web pages: some spaces are non-breaking ones (U+00A0).
        Ok(text) => Some(text.replace('\u{a0}', " ")),
        Err(_) => {
            eprintln!("skipped: {path} is absent (the seeds live in ../shared)");
            None
        }
    }
}

#[test]
fn words_are_seed_002_s_recursive_output() {
    // Seed 002 calls towerOfHanoi(3, 'A', 'B', 'C'): destination B.
    let ours = ply(&[
        "hanoi", "solve", "--discs", "3", "--to", "222", "--format", "words",
    ]);
    let Some(text) = seed("002_6c74b50d0782655b.txt") else {
        return;
    };
    // Its output, laid out two moves a line with HTML spaces and Python's double spaces.
    let theirs: Vec<String> = text
        .lines()
        .skip_while(|l| !l.starts_with("### Output"))
        .flat_map(|l| l.split("&nbsp;").map(str::to_string).collect::<Vec<_>>())
        .filter(|p| p.trim_start().starts_with("Move disk"))
        .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
        .take(7)
        .collect();
    assert_eq!(theirs.len(), 7);
    assert_eq!(ours, theirs.join("\n") + "\n");
}

#[test]
fn show_towers_is_seed_000_s_printout_byte_for_byte() {
    let ours = ply(&[
        "hanoi",
        "solve",
        "--discs",
        "6",
        "--pegs",
        "4",
        "--show-towers",
    ]);
    let Some(text) = seed("000_ae577f70d6142f47.txt") else {
        return;
    };
    let start = text.find("6,5,4,3,2, :  : 1, : \n").unwrap();
    let end = text[start..].find("17 Moves\n").unwrap() + start + "17 Moves\n".len();
    assert_eq!(ours, &text[start..end]);
}

#[test]
fn the_kth_move_is_the_kth_line_of_the_solution() {
    for n in 1..=5usize {
        let solution = ply(&["hanoi", "solve", "--discs", &n.to_string()]);
        let words = ply(&[
            "hanoi",
            "solve",
            "--discs",
            &n.to_string(),
            "--format",
            "words",
        ]);
        for (k, (line, word)) in solution.lines().zip(words.lines()).enumerate() {
            let k = k + 1;
            let out = ply(&[
                "hanoi",
                "kth",
                "--discs",
                &n.to_string(),
                "--k",
                &k.to_string(),
                "--json",
            ]);
            let v: serde_json::Value = serde_json::from_str(&out).unwrap();
            let (from, to) = line.split_once(' ').unwrap();
            assert_eq!(v["from"].to_string(), from, "n {n} k {k}");
            assert_eq!(v["to"].to_string(), to, "n {n} k {k}");
            // The disc is the lowest set bit of k, and the same the solution moves.
            let disc = k.trailing_zeros() as u64 + 1;
            assert_eq!(v["disc"], disc, "n {n} k {k}");
            assert!(word.starts_with(&format!("Move disk {disc} ")), "{word}");
            assert_eq!(v["disc_moves"], (1u64 << (n as u64 - disc)).to_string());
        }
    }
}

/// Seed 000's getSteps, as written: the largest t4 scanning down while it improves.
fn get_steps(height: u64, table: &mut Vec<(u64, u64)>) -> (u64, u64) {
    if height == 1 {
        return (1, 0);
    }
    if let Some(&v) = table.get(height as usize).filter(|v| v.0 > 0) {
        return v;
    }
    let (mut best, mut t4) = (u64::MAX, 0);
    for t4_height in (1..height).rev() {
        let t3 = height - 1 - t4_height;
        let steps = 1 + 2 * get_steps(t4_height, table).0 + 2 * ((1u64 << t3) - 1);
        if steps < best {
            best = steps;
            t4 = t4_height;
        } else {
            break;
        }
    }
    if table.len() <= height as usize {
        table.resize(height as usize + 1, (0, 0));
    }
    table[height as usize] = (best, t4);
    (best, t4)
}

#[test]
fn the_split_table_is_seed_000_s_get_steps() {
    let out = ply(&["hanoi", "split", "--pegs", "4", "--discs", "40"]);
    let mut table = Vec::new();
    for (h, line) in (1..=40u64).zip(out.lines()) {
        let (steps, t4) = get_steps(h, &mut table);
        let head = line.split("  ").next().unwrap();
        assert_eq!(head, format!("putting => {h}:{steps}:{t4}"));
    }
    assert_eq!(out.lines().count(), 40);
}

#[test]
fn the_average_distance_is_exact_for_small_n_and_agrees_with_hinz() {
    // Sums of the distances over all ordered pairs (checked against breadth-first search in
    // the puzzle's own tests).
    let sums = [6u64, 144, 2838, 53160, 975678, 17734176];
    for (n, sum) in (1..=6).zip(sums) {
        let out = ply(&["hanoi", "average", "--discs", &n.to_string()]);
        let pairs = 9u64.pow(n);
        let exact = format!("exact: {sum}/{pairs} = {:.6}", sum as f64 / pairs as f64);
        assert_eq!(
            out,
            format!(
                "{exact}\nHinz's formula: {:.6}\n",
                sum as f64 / pairs as f64
            )
        );
    }
    // Beyond f64, the asymptotic 466/885 2^n in scientific form.
    let out = ply(&["hanoi", "average", "--discs", "5000"]);
    assert!(
        out.ends_with("Hinz's formula: about 7.437397e1504 (466/885 * 2^5000)\n"),
        "{out}"
    );
}

/// Issue 22, item 8 (peg solitaire, in this file for its shared runner): the package graph
/// drawn as an SVG picture, one small board per position and one line per jump.
#[test]
fn the_package_graph_is_drawn_as_boards() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("p.svg");
    let out = ply(&[
        "peg",
        "package",
        "--from",
        "[1 0 0 -1;-1 1 1 1;-1 1 1 1]",
        "--to",
        "[1 0 0 -1;-1 0 0 0;-1 0 0 0]",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    // The seed's example: 11 positions, 15 jumps.
    assert!(out.starts_with("11 positions, 15 jumps"), "{out}");
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg ") && text.trim_end().ends_with("</svg>"));
    let states: Vec<&str> = text.split("<g class=\"state\">").skip(1).collect();
    assert_eq!(states.len(), 11);
    assert_eq!(text.matches("<line class=\"move\"").count(), 15);
    // Every board shows the block's 9 holes; pegs go from 7 (the start) down to 1.
    let mut pegs: Vec<usize> = states
        .iter()
        .map(|g| {
            let g = &g[..g.find("</g>").unwrap()];
            assert_eq!(g.matches("<circle").count(), 9);
            g.matches("class=\"peg\"").count()
        })
        .collect();
    pegs.sort_unstable();
    assert_eq!((pegs[0], pegs[pegs.len() - 1]), (1, 7));
}

/// Issue 22 item 5: `--longest` between any two positions prints every longest
/// non-self-crossing path. Seed 002 says there are "one or two"; from 4 discs on there can be
/// more (the library's tests confirm these counts by an independent search).
#[test]
fn longest_between_any_positions_prints_every_path() {
    let count = ply(&[
        "hanoi",
        "solve",
        "--discs",
        "4",
        "--from",
        "1213",
        "--to",
        "1111",
        "--longest",
        "--count",
    ]);
    assert_eq!(count, "80 3\n");
    let text = ply(&[
        "hanoi",
        "solve",
        "--discs",
        "4",
        "--from",
        "1213",
        "--to",
        "1111",
        "--longest",
    ]);
    let mut paths: Vec<Vec<(usize, usize)>> = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("# path ") {
            assert!(rest.ends_with(" of 3: 80 moves"), "{line}");
            paths.push(Vec::new());
        } else {
            let (f, t) = line.split_once(' ').unwrap();
            let mv = (
                f.parse::<usize>().unwrap() - 1,
                t.parse::<usize>().unwrap() - 1,
            );
            paths.last_mut().unwrap().push(mv);
        }
    }
    assert_eq!(paths.len(), 3);
    for path in &paths {
        // Replay on pegs of discs, largest first as in "1213": every position once.
        let mut pegs: Vec<Vec<usize>> = vec![Vec::new(); 3];
        for (d, c) in "1213".chars().enumerate() {
            pegs[c as usize - '1' as usize].push(4 - d);
        }
        let mut seen = std::collections::HashSet::from([pegs.clone()]);
        for &(f, t) in path {
            let disc = pegs[f].pop().unwrap();
            assert!(pegs[t].last().is_none_or(|&top| top > disc));
            pegs[t].push(disc);
            assert!(seen.insert(pegs.clone()), "a position twice");
        }
        assert_eq!(pegs, vec![vec![4, 3, 2, 1], vec![], vec![]]);
        assert_eq!(seen.len(), 81);
    }
    let json = ply(&[
        "hanoi",
        "solve",
        "--discs",
        "2",
        "--from",
        "11",
        "--to",
        "12",
        "--longest",
        "--json",
    ]);
    assert!(
        json.starts_with("{\"moves\": 8, \"longest\": true, \"count\": 1, \"paths\": [[["),
        "{json}"
    );
    let Some(seed) = seed("002_6c74b50d0782655b.txt") else {
        return;
    };
    assert!(seed.contains("there are one or two different longest non selfcrossing paths"));
}
