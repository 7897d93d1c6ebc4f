//! The terminal front end of Block Breaker (ratatui + crossterm): drawing a `Sim`, the
//! game's screens and keys, and the watch mode of `autoplay` and `replay`. The terminal is
//! restored on every way out: a normal return, an error, q, Ctrl-C (a key in raw mode)
//! and a panic (ratatui's hook, plus our guard's `Drop` while unwinding).

use std::time::{Duration, Instant};

use anyhow::Result;
use ratatui::DefaultTerminal;
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{
    self, Event as TermEvent, KeyCode, KeyEvent, KeyEventKind, KeyModifiers,
    KeyboardEnhancementFlags, PopKeyboardEnhancementFlags, PushKeyboardEnhancementFlags,
};
use ratatui::crossterm::{execute, terminal};
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::widgets::{Block, Borders, Clear};

use ply_breaker::field::{
    BALL, CAPSULE_H, COL, FIELD_COLS, FIELD_ROWS, PADDLE_Y, ROW, STEPS_PER_SECOND,
};
use ply_breaker::scores::HighScores;
use ply_breaker::trace::Recorder;
use ply_breaker::{Action, Cell, Level, Sim, Start, Status, rng};

use crate::cmd::breaker::{PlayOutcome, entry};

/// The smallest terminal the game fits in.
const NEED_W: u16 = FIELD_COLS as u16 + 2 + 24;
const NEED_H: u16 = FIELD_ROWS as u16 + 2;
/// How long one key press keeps the paddle moving when the terminal reports no releases.
const HOLD: Duration = Duration::from_millis(130);

fn step_len() -> Duration {
    Duration::from_nanos(1_000_000_000 / u64::from(STEPS_PER_SECOND))
}

/// The terminal in raw mode on the alternate screen, restored when dropped.
struct Term {
    terminal: DefaultTerminal,
    releases: bool,
}

impl Term {
    fn start() -> Result<Term> {
        let terminal = ratatui::try_init()?;
        // Key releases, where the terminal can report them (kitty protocol), let a held
        // arrow key move the paddle smoothly; elsewhere each press moves it for `HOLD`.
        let releases = matches!(terminal::supports_keyboard_enhancement(), Ok(true))
            && execute!(
                std::io::stdout(),
                PushKeyboardEnhancementFlags(KeyboardEnhancementFlags::REPORT_EVENT_TYPES)
            )
            .is_ok();
        if releases {
            let hook = std::panic::take_hook();
            std::panic::set_hook(Box::new(move |info| {
                let _ = execute!(std::io::stdout(), PopKeyboardEnhancementFlags);
                hook(info);
            }));
        }
        Ok(Term { terminal, releases })
    }

    fn draw(&mut self, f: impl FnOnce(&mut Frame)) -> Result<()> {
        self.terminal.draw(f)?;
        Ok(())
    }
}

impl Drop for Term {
    fn drop(&mut self) {
        if std::thread::panicking() {
            // The panic hooks have restored the terminal already; leaving the alternate
            // screen twice would move the cursor back over the panic message.
            return;
        }
        if self.releases {
            let _ = execute!(std::io::stdout(), PopKeyboardEnhancementFlags);
        }
        let _ = self.terminal.show_cursor();
        ratatui::restore();
    }
}

/// What the side panel shows besides the game state.
struct Hud<'a> {
    level: usize,
    levels: usize,
    mode: &'a str,
}

fn brick_style(hp: u8, bonus: bool) -> Style {
    let color = if bonus {
        Color::Cyan
    } else {
        match hp {
            1 => Color::Green,
            2 => Color::Yellow,
            3 => Color::LightMagenta,
            4 => Color::LightRed,
            _ => Color::Red,
        }
    };
    Style::default().fg(color)
}

/// Draws the field, the panel and an optional message box.
fn draw(frame: &mut Frame, sim: &Sim, hud: &Hud, message: &[String]) {
    let area = frame.area();
    if area.width < NEED_W || area.height < NEED_H {
        let text = format!(
            "terminal too small: need {NEED_W}x{NEED_H}, have {}x{} (q quits)",
            area.width, area.height
        );
        frame.buffer_mut().set_string(0, 0, text, Style::default());
        return;
    }
    let outer = Rect::new(area.x, area.y, FIELD_COLS as u16 + 2, NEED_H);
    let title = format!(" {} ", sim.name());
    frame.render_widget(Block::default().borders(Borders::ALL).title(title), outer);
    let (ox, oy) = (outer.x + 1, outer.y + 1);
    draw_field(frame.buffer_mut(), ox, oy, sim);
    draw_panel(
        frame.buffer_mut(),
        outer.x + outer.width + 1,
        area.y,
        sim,
        hud,
    );
    if !message.is_empty() {
        let w = message.iter().map(|l| l.chars().count()).max().unwrap_or(0) as u16 + 4;
        let h = message.len() as u16 + 2;
        let r = Rect::new(
            ox + (FIELD_COLS as u16).saturating_sub(w) / 2,
            oy + (FIELD_ROWS as u16).saturating_sub(h) / 2 + 2,
            w.min(FIELD_COLS as u16),
            h,
        );
        frame.render_widget(Clear, r);
        frame.render_widget(Block::default().borders(Borders::ALL), r);
        for (i, line) in message.iter().enumerate() {
            let x = r.x + (r.width.saturating_sub(line.chars().count() as u16)) / 2;
            let style = if i == 0 {
                Style::default().add_modifier(Modifier::BOLD)
            } else {
                Style::default()
            };
            frame
                .buffer_mut()
                .set_string(x, r.y + 1 + i as u16, line, style);
        }
    }
}

fn draw_field(buf: &mut Buffer, ox: u16, oy: u16, sim: &Sim) {
    let at = |x: i32, y: i32| -> Option<(u16, u16)> {
        let (c, r) = (x.div_euclid(COL), y.div_euclid(ROW));
        ((0..FIELD_COLS).contains(&c) && (0..FIELD_ROWS).contains(&r))
            .then(|| (ox + c as u16, oy + r as u16))
    };
    for (r, row) in sim.grid().iter().enumerate() {
        for (c, cell) in row.iter().enumerate() {
            let (x, y) = (ox + c as u16 * 4, oy + 2 + r as u16);
            match *cell {
                Cell::Empty => {}
                Cell::Solid => {
                    buf.set_string(x, y, "▓▓▓▓", Style::default().fg(Color::DarkGray));
                }
                Cell::Brick { hp, bonus, .. } => {
                    let text = if bonus {
                        "[**]".to_string()
                    } else {
                        format!("[{hp}{hp}]")
                    };
                    buf.set_string(x, y, text, brick_style(hp, bonus));
                }
            }
        }
    }
    if sim.net() {
        let y = oy + (ply_breaker::field::NET_Y / ROW) as u16;
        buf.set_string(
            ox,
            y,
            "~".repeat(FIELD_COLS as usize),
            Style::default().fg(Color::Blue),
        );
    }
    let p = sim.paddle();
    let px = ((p.x + COL / 2) / COL) as u16;
    let pw = (p.w / COL) as usize;
    buf.set_string(
        ox + px,
        oy + (PADDLE_Y / ROW) as u16,
        "=".repeat(pw),
        Style::default()
            .fg(Color::White)
            .add_modifier(Modifier::BOLD),
    );
    for c in sim.capsules() {
        if let Some((x, y)) = at(c.x + COL / 2, c.y + CAPSULE_H / 2) {
            let color = if c.kind.is_good() {
                Color::LightGreen
            } else {
                Color::LightRed
            };
            buf.set_string(
                x,
                y,
                format!("({})", c.kind.letter()),
                Style::default().fg(color),
            );
        }
    }
    for b in sim.balls() {
        if let Some((x, y)) = at(b.cx(), b.y + BALL / 2) {
            let color = if sim.pierce() {
                Color::LightRed
            } else {
                Color::White
            };
            buf.set_string(
                x,
                y,
                "O",
                Style::default().fg(color).add_modifier(Modifier::BOLD),
            );
        }
    }
}

fn draw_panel(buf: &mut Buffer, x: u16, y: u16, sim: &Sim, hud: &Hud) {
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let plain = Style::default();
    let mut lines: Vec<(String, Style)> = vec![
        ("BLOCK BREAKER".into(), bold),
        (hud.mode.to_string(), Style::default().fg(Color::Cyan)),
        (format!("Level {}/{}", hud.level, hud.levels), plain),
        (format!("Score {}", sim.score()), bold),
        (format!("Lives {}", sim.lives()), plain),
        (format!("Balls {}", sim.balls().len()), plain),
        (format!("Bricks left {}", sim.breakable_left()), plain),
        (String::new(), plain),
    ];
    for (kind, steps) in sim.effects() {
        let secs = steps.div_ceil(STEPS_PER_SECOND);
        let color = if kind.is_good() {
            Color::LightGreen
        } else {
            Color::LightRed
        };
        lines.push((
            format!("{} {secs}s", kind.name()),
            Style::default().fg(color),
        ));
    }
    let keys = [
        "",
        "<- -> or a d: move",
        "space: launch",
        "p: pause   q: quit",
    ];
    let room = (NEED_H as usize).saturating_sub(keys.len());
    lines.truncate(room);
    while lines.len() < room {
        lines.push((String::new(), plain));
    }
    for k in keys {
        lines.push((k.to_string(), Style::default().fg(Color::DarkGray)));
    }
    for (i, (text, style)) in lines.iter().enumerate() {
        buf.set_string(x, y + i as u16, text, *style);
    }
}

/// Keys that mean quit everywhere: q, Esc, Ctrl-C.
fn is_quit(k: &KeyEvent) -> bool {
    matches!(
        k.code,
        KeyCode::Char('q') | KeyCode::Char('Q') | KeyCode::Esc
    ) || (k.code == KeyCode::Char('c') && k.modifiers.contains(KeyModifiers::CONTROL))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Screen {
    Play,
    Paused,
    Cleared,
    Over { won: bool },
    Scores { rank: Option<usize> },
}

/// The paddle's direction from the keys.
#[derive(Default)]
struct Input {
    dir: i32,
    until: Option<Instant>,
    launch: bool,
}

impl Input {
    fn key(&mut self, k: &KeyEvent, releases: bool) {
        let dir = match k.code {
            KeyCode::Left | KeyCode::Char('a') | KeyCode::Char('A') => -1,
            KeyCode::Right | KeyCode::Char('d') | KeyCode::Char('D') => 1,
            KeyCode::Char(' ') if k.kind != KeyEventKind::Release => {
                self.launch = true;
                return;
            }
            _ => return,
        };
        match k.kind {
            KeyEventKind::Release => {
                if self.dir == dir {
                    self.dir = 0;
                }
            }
            _ => {
                self.dir = dir;
                self.until = (!releases).then(|| Instant::now() + HOLD);
            }
        }
    }

    fn action(&mut self) -> Action {
        if std::mem::take(&mut self.launch) {
            return Action::Launch;
        }
        if let Some(t) = self.until
            && Instant::now() > t
        {
            self.dir = 0;
            self.until = None;
        }
        match self.dir {
            -1 => Action::Left,
            1 => Action::Right,
            _ => Action::Stay,
        }
    }
}

/// The game in the terminal, from `levels[0]` (number `first`) to the end or q.
pub fn play(
    levels: &[Level],
    first: usize,
    seed: u64,
    mut scores: HighScores,
    name: &str,
    panic_after: Option<u64>,
) -> Result<PlayOutcome> {
    let mut term = Term::start()?;
    let last = first + levels.len() - 1;
    let mut index = 0;
    let new_level = |index: usize, start: Start| {
        let number = first + index;
        let s = rng::level_seed(seed, number - 1);
        (
            Sim::new(&levels[index], s, start),
            Recorder::new(number, &levels[index], s, start),
        )
    };
    let (mut sim, mut recorder) = new_level(0, Start::default());
    let mut episodes = Vec::new();
    let mut screen = Screen::Play;
    let mut input = Input::default();
    let mut changed = false;
    let mut won = false;
    let mut next = Instant::now();
    loop {
        let hud = Hud {
            level: first + index,
            levels: last,
            mode: "",
        };
        let message = screen_message(screen, &sim, first + index, last, &scores);
        term.draw(|f| draw(f, &sim, &hud, &message))?;
        // Wait for the next step, handling keys meanwhile.
        loop {
            let timeout = next.saturating_duration_since(Instant::now());
            if !event::poll(timeout)? {
                break;
            }
            let TermEvent::Key(k) = event::read()? else {
                continue;
            };
            if is_quit(&k) && k.kind != KeyEventKind::Release {
                if screen == Screen::Play || screen == Screen::Paused {
                    episodes.push(recorder.clone().finish(&sim));
                }
                return Ok(PlayOutcome {
                    score: sim.score(),
                    level: first + index,
                    won,
                    scores: changed.then_some(scores),
                    episodes,
                });
            }
            if k.kind == KeyEventKind::Release && !matches!(screen, Screen::Play) {
                continue;
            }
            match (screen, k.code) {
                (Screen::Play, KeyCode::Char('p') | KeyCode::Char('P')) => screen = Screen::Paused,
                (Screen::Paused, KeyCode::Char('p') | KeyCode::Char('P')) => {
                    screen = Screen::Play;
                    next = Instant::now();
                }
                (Screen::Play, _) => input.key(&k, term.releases),
                (Screen::Cleared, KeyCode::Char(' ') | KeyCode::Enter) => {
                    index += 1;
                    (sim, recorder) = new_level(index, sim.carry());
                    input = Input::default();
                    screen = Screen::Play;
                    next = Instant::now();
                }
                (Screen::Over { won: w }, KeyCode::Char(' ') | KeyCode::Enter) => {
                    let rank = scores.insert(entry(name, &sim, first + index, w));
                    changed |= rank.is_some();
                    screen = Screen::Scores { rank };
                }
                (Screen::Scores { .. }, KeyCode::Char('r') | KeyCode::Char('R')) => {
                    index = 0;
                    (sim, recorder) = new_level(0, Start::default());
                    input = Input::default();
                    screen = Screen::Play;
                    won = false;
                    next = Instant::now();
                }
                _ => {}
            }
        }
        // A terminal too small to show the field pauses the game (resize, then p).
        let size = term.terminal.size()?;
        if screen == Screen::Play && (size.width < NEED_W || size.height < NEED_H) {
            screen = Screen::Paused;
        }
        if screen != Screen::Play {
            next = Instant::now() + step_len();
            continue;
        }
        // Fixed steps for the time that passed (at most a few, after a stall).
        let mut n = 0;
        while next <= Instant::now() && n < 4 && sim.status() == Status::Playing {
            let action = input.action();
            sim.step(action);
            recorder.record(action, &sim);
            if panic_after.is_some_and(|n| sim.steps() >= n) {
                panic!(
                    "--panic-after {}: the panic the tests asked for",
                    sim.steps()
                );
            }
            next += step_len();
            n += 1;
        }
        if next <= Instant::now() {
            next = Instant::now() + step_len();
        }
        match sim.status() {
            Status::Playing => {}
            Status::Cleared => {
                episodes.push(recorder.clone().finish(&sim));
                if first + index == last {
                    won = true;
                    screen = Screen::Over { won: true };
                } else {
                    screen = Screen::Cleared;
                }
            }
            Status::GameOver => {
                episodes.push(recorder.clone().finish(&sim));
                screen = Screen::Over { won: false };
            }
        }
    }
}

fn screen_message(
    screen: Screen,
    sim: &Sim,
    level: usize,
    last: usize,
    scores: &HighScores,
) -> Vec<String> {
    match screen {
        Screen::Play => {
            if sim.balls().iter().any(|b| b.hold.is_some()) && sim.steps() < 120 {
                vec![
                    format!("Level {level}: {}", sim.name()),
                    "space to launch".into(),
                ]
            } else {
                Vec::new()
            }
        }
        Screen::Paused => vec!["PAUSED".into(), "p to play on, q to quit".into()],
        Screen::Cleared => vec![
            format!("LEVEL {level} CLEARED"),
            format!("score {}", sim.score()),
            format!("space for level {}", level + 1),
        ],
        Screen::Over { won } => vec![
            if won {
                "YOU WIN: every level cleared".into()
            } else {
                "GAME OVER".into()
            },
            format!("score {} on level {level} of {last}", sim.score()),
            "space for the high scores".into(),
        ],
        Screen::Scores { rank } => {
            let mut v = vec!["HIGH SCORES".to_string()];
            for (i, e) in scores.entries.iter().enumerate() {
                let mark = if Some(i) == rank { ">" } else { " " };
                v.push(format!(
                    "{mark}{:2}. {:<16} {:>7}  level {}",
                    i + 1,
                    e.name,
                    e.score,
                    e.level
                ));
            }
            if scores.entries.is_empty() {
                v.push("(none yet)".into());
            }
            v.push(String::new());
            v.push("r to play again, q to quit".into());
            v
        }
    }
}

/// Shows a run played by someone else (the autopilot, a trace) at `speed` steps a frame.
pub struct Watch {
    term: Term,
    speed: u32,
    count: u32,
    next: Instant,
    stopped: bool,
    mode: String,
}

impl Watch {
    /// Takes over the terminal.
    pub fn start(speed: u32, mode: &str) -> Result<Watch> {
        Ok(Watch {
            term: Term::start()?,
            speed: speed.max(1),
            count: 0,
            next: Instant::now(),
            stopped: false,
            mode: if speed > 1 {
                format!("{mode} x{speed}")
            } else {
                mode.to_string()
            },
        })
    }

    /// Whether q stopped it.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Called after every step; draws every `speed`-th at 60 frames a second. Returns
    /// `false` once q is pressed.
    pub fn frame(&mut self, sim: &Sim, level: usize, levels: usize) -> Result<bool> {
        self.count += 1;
        if !self.count.is_multiple_of(self.speed) && sim.status() == Status::Playing {
            return Ok(true);
        }
        let hud = Hud {
            level,
            levels,
            mode: &self.mode,
        };
        let mut paused = false;
        loop {
            let message = if paused {
                vec!["PAUSED".to_string(), "p to go on, q to stop".into()]
            } else {
                Vec::new()
            };
            self.term.draw(|f| draw(f, sim, &hud, &message))?;
            let timeout = if paused {
                Duration::from_millis(250)
            } else {
                self.next.saturating_duration_since(Instant::now())
            };
            if event::poll(timeout)? {
                if let TermEvent::Key(k) = event::read()? {
                    if k.kind == KeyEventKind::Release {
                        continue;
                    }
                    if is_quit(&k) {
                        self.stopped = true;
                        return Ok(false);
                    }
                    if matches!(k.code, KeyCode::Char('p') | KeyCode::Char('P')) {
                        paused = !paused;
                    }
                }
                continue;
            }
            if !paused {
                break;
            }
        }
        self.next = Instant::now().max(self.next) + step_len();
        Ok(true)
    }

    /// Shows the cleared level for a moment.
    pub fn pause_between_levels(&mut self, sim: &Sim, level: usize, levels: usize) -> Result<()> {
        let hud = Hud {
            level,
            levels,
            mode: &self.mode,
        };
        let message = vec![
            format!("LEVEL {level} CLEARED"),
            format!("score {}", sim.score()),
        ];
        self.term.draw(|f| draw(f, sim, &hud, &message))?;
        let until = Instant::now() + Duration::from_millis(1500);
        while let Some(left) = until.checked_duration_since(Instant::now()) {
            if event::poll(left)?
                && let TermEvent::Key(k) = event::read()?
                && is_quit(&k)
            {
                self.stopped = true;
                break;
            }
        }
        Ok(())
    }
}
