//! `ply games`: what ply knows.

use std::process::ExitCode;

use anyhow::Result;
use serde::Serialize;

use ply_games::GameKind;
use ply_puzzles::PuzzleKind;

use crate::args::GamesArgs;

#[derive(Serialize)]
struct Row {
    name: &'static str,
    kind: &'static str,
    seats: usize,
    bot_format: Option<&'static str>,
    summary: &'static str,
}

pub fn run(args: &GamesArgs) -> Result<ExitCode> {
    let mut rows: Vec<Row> = GameKind::ALL
        .iter()
        .map(|&k| Row {
            name: k.name(),
            kind: "game",
            seats: k.info().seats,
            bot_format: k.has_hackerearth_format().then_some("hackerearth"),
            summary: k.info().summary,
        })
        .collect();
    rows.extend(PuzzleKind::ALL.iter().map(|&p| Row {
        name: p.name(),
        kind: "puzzle",
        seats: 1,
        bot_format: None,
        summary: p.summary(),
    }));
    if args.json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
    } else {
        for r in &rows {
            let seats = if r.kind == "puzzle" {
                "puzzle".to_string()
            } else {
                format!("{} seats", r.seats)
            };
            let bot = r
                .bot_format
                .map(|f| format!(" [bot: {f}]"))
                .unwrap_or_default();
            println!("{:<12} {:<8} {}{}", r.name, seats, r.summary, bot);
        }
    }
    Ok(ExitCode::SUCCESS)
}
