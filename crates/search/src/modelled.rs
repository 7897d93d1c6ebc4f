//! A root choice that models the opponent's replies (`ply bot --model true`; off by default,
//! docs/strength.md "Session 43").
//!
//! Why: against Taunt's top-10 entry the bot never loses and draws about one game in ten, the
//! draws level long before the last moves (docs/strength.md, sessions 41 and 42). The search
//! assumes the best defence everywhere, so among moves it rates alike it cannot tell one
//! after which most of the replies the entry actually plays (material only, 4 to 6 plies,
//! random among equals: `ply_games::taunt::model_replies`) leave it worse off from one after
//! which they do not. This stage asks: after the main search has chosen, with the time left,
//! for each root move the minimax value at a shallow depth (its safety) and the mean of the
//! search's values after each of the modelled replies (what the entry will likely let us
//! have); it plays the move whose mean is best among those within [`MODEL_MARGIN`] of the
//! best minimax value, if that mean beats the main move's by more than [`MODEL_GAIN`].

use std::time::Instant;

use crate::{AlphaBeta, SearchReport};
use ply_core::{Budget, Evaluator, Game, MoveOrdering, Score};

/// How far (in the evaluation's units, a Taunt piece being about 120) below the best
/// minimax value at the stage's depth a root move may be and still be chosen for its
/// modelled replies.
pub const MODEL_MARGIN: i32 = 30;

/// How much (same units) a root move's mean over the modelled replies must beat the main
/// search's move's before it is played instead.
pub const MODEL_GAIN: i32 = 20;

/// One root move as the stage saw it at its last finished depth.
#[derive(Clone, Debug, PartialEq)]
pub struct Rated<M> {
    /// The move.
    pub mv: M,
    /// Its minimax value for the side to move at the root (`depth + 1` plies).
    pub value: i32,
    /// The mean, over the modelled replies, of the side to move's value after each
    /// (`depth` plies below the reply); the minimax value where there is no reply.
    pub expected: i32,
}

/// What [`model_choice`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelReport<M> {
    /// The main search's move, given to [`model_choice`].
    pub main: M,
    /// The move to play: the main move unless another's mean is better by the gain.
    pub best: M,
    /// The depth below the modelled replies of the last finished pass (0: none finished).
    pub depth: u32,
    /// Every root move's values at that depth, in move-generation order.
    pub rated: Vec<Rated<M>>,
}

/// Whether a search to `depth` finished (or reached every end).
fn finished<M>(r: &SearchReport<M>, depth: u32) -> bool {
    r.exact || r.depth >= depth
}

fn clamp(s: Score) -> i32 {
    s.0.clamp(-Score::PROVEN.0, Score::PROVEN.0)
}

/// A move with the model stage (`ply bot --model true`): the main search within `share` (0
/// to 1) of the time to `deadline`; then, where `wanted(score, depth)` says the stage should
/// run on the main search's result, [`model_choice`] with the time left (its depth at most
/// two below the main search's), whose move replaces the main one if it differs; else the
/// main search again to `deadline` (its table warm, so it picks up about where it stopped).
/// Returns the report and, when the stage ran, what it rated.
pub fn search_with_model<G, E, O>(
    search: &mut AlphaBeta<G, E, O>,
    root: &G,
    deadline: Instant,
    share: f64,
    wanted: impl Fn(Score, u32) -> bool,
    replies: impl Fn(&G) -> Vec<G>,
) -> (SearchReport<G::Move>, Option<ModelReport<G::Move>>)
where
    G: Game,
    E: Evaluator<G> + Clone,
    O: MoveOrdering<G> + Clone,
{
    let now = Instant::now();
    let first = now
        + deadline
            .saturating_duration_since(now)
            .mul_f64(share.clamp(0.0, 1.0));
    let budget = |end| Budget {
        deadline: Some(end),
        ..Budget::UNLIMITED
    };
    let mut report = search.search_parallel(root, budget(first));
    let Some(main) = report.best else {
        return (report, None);
    };
    if report.exact || !wanted(report.score, report.depth) {
        return (search.search_parallel(root, budget(deadline)), None);
    }
    let model = model_choice(
        search,
        root,
        main,
        Some(deadline),
        report.depth.saturating_sub(2).max(1),
        replies,
    );
    if model.best != main {
        report.best = Some(model.best);
        report.pv = vec![model.best];
    }
    (report, Some(model))
}

/// From `state` (not over), with the main search's move `main`: deepening passes (depth 1,
/// 2, ...) until `deadline` (or `max_depth`), each rating every root move by its minimax
/// value at `depth + 1` and the mean of its modelled replies' values at `depth`
/// (`replies(child)`: the positions after the replies the opponent is expected to pick
/// from). The last finished pass decides; with none, `main`.
pub fn model_choice<G, E, O>(
    search: &mut AlphaBeta<G, E, O>,
    state: &G,
    main: G::Move,
    deadline: Option<Instant>,
    max_depth: u32,
    replies: impl Fn(&G) -> Vec<G>,
) -> ModelReport<G::Move>
where
    G: Game,
    E: Evaluator<G>,
    O: MoveOrdering<G>,
{
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    // The replies are modelled when a pass first needs them, the deadline checked before
    // each root move's (the model's own search has no clock).
    let mut children: Vec<(G::Move, G, Option<Vec<G>>)> = moves
        .iter()
        .map(|&mv| {
            let mut child = state.clone();
            child.play_unchecked(mv);
            (mv, child, None)
        })
        .collect();
    let past = || deadline.is_some_and(|d| Instant::now() >= d);
    let mut report = ModelReport {
        main,
        best: main,
        depth: 0,
        rated: Vec::new(),
    };
    let budget = |depth: u32| Budget {
        deadline,
        max_depth: Some(depth),
        ..Budget::UNLIMITED
    };
    'passes: for depth in 1..=max_depth {
        let mut rated = Vec::with_capacity(children.len());
        for (mv, child, modelled) in &mut children {
            if past() {
                break 'passes;
            }
            let after = modelled.get_or_insert_with(|| {
                if child.is_terminal() {
                    Vec::new()
                } else {
                    replies(child)
                }
            });
            let r = search.search(child, budget(depth + 1));
            if !finished(&r, depth + 1) && !r.exact {
                break 'passes;
            }
            let value = -clamp(r.score);
            let expected = if after.is_empty() {
                value
            } else {
                let mut sum = 0i64;
                for reply in after.iter() {
                    let r = search.search(reply, budget(depth));
                    if !finished(&r, depth) {
                        break 'passes;
                    }
                    sum += i64::from(clamp(r.score));
                }
                (sum / after.len() as i64) as i32
            };
            rated.push(Rated {
                mv: *mv,
                value,
                expected,
            });
        }
        report.depth = depth;
        report.best = decide(main, &rated);
        report.rated = rated;
    }
    report
}

/// The move among `rated` with the best mean over its modelled replies among those within
/// [`MODEL_MARGIN`] of the best value, if its mean beats `main`'s by more than
/// [`MODEL_GAIN`]; `main` otherwise (also when `main` is not among them).
pub fn decide<M: Copy + PartialEq>(main: M, rated: &[Rated<M>]) -> M {
    let Some(main_rated) = rated.iter().find(|r| r.mv == main) else {
        return main;
    };
    let top = rated.iter().map(|r| r.value).max().unwrap_or(i32::MIN);
    let best = rated
        .iter()
        .filter(|r| r.value >= top - MODEL_MARGIN)
        .max_by_key(|r| r.expected);
    match best {
        Some(b) if b.expected > main_rated.expected + MODEL_GAIN => b.mv,
        _ => main,
    }
}
