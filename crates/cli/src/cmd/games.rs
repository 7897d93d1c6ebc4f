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
    seats: String,
    bot_format: Option<&'static str>,
    summary: &'static str,
}

pub fn run(args: &GamesArgs) -> Result<ExitCode> {
    let mut rows: Vec<Row> = GameKind::ALL
        .iter()
        .map(|&k| Row {
            name: k.name(),
            kind: "game",
            seats: k.info().seats.to_string(),
            bot_format: k.has_hackerearth_format().then_some("hackerearth"),
            summary: k.info().summary,
        })
        .collect();
    // Ants is a simultaneous-move game (ply_core::SimultaneousGame), so it is not a GameKind.
    rows.push(Row {
        name: "ants",
        kind: "game",
        seats: "2-10".to_string(),
        bot_format: Some("ai-challenge"),
        summary: "the 2011 Google AI Challenge, rule-exact; simultaneous moves, fog of war (`ply ants`)",
    });
    rows.extend(PuzzleKind::ALL.iter().map(|&p| Row {
        name: p.name(),
        kind: "puzzle",
        seats: "1".to_string(),
        bot_format: None,
        summary: p.summary(),
    }));
    if args.json.on {
        outln!("{}", serde_json::to_string_pretty(&rows)?);
    } else {
        let seats = |r: &Row| {
            if r.kind == "puzzle" {
                "puzzle".to_string()
            } else {
                format!("{} seats", r.seats)
            }
        };
        // Columns as wide as their widest cell, so that every summary starts in one column.
        let name_width = rows.iter().map(|r| r.name.len()).max().unwrap_or(0);
        let seats_width = rows.iter().map(|r| seats(r).len()).max().unwrap_or(0);
        for r in &rows {
            let bot = r
                .bot_format
                .map(|f| format!(" [bot: {f}]"))
                .unwrap_or_default();
            outln!(
                "{:<name_width$}  {:<seats_width$}  {}{}",
                r.name,
                seats(r),
                r.summary,
                bot
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
