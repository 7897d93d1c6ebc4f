//! The phalanx bot: the hunter's food and hill defence, with the way xathis, first of the
//! 2011 contest, fought and (since session 32) held the map (issue 21 item 3; his post
//! mortem and `Strategy.java`):
//!
//! * **Engagement**: an own ant and an enemy are engaged when some move of each (holding or
//!   one step onto land) brings them within attack range: only engaged ants can die or
//!   kill this turn. Engaged ants and enemies form groups (transitively).
//! * **Battles**: each group's moves come from a max-min over every assignment of our
//!   ants' moves against every assignment of the enemies' moves (no two ants on one
//!   square, no step onto water or food), each scored by the engine's focus rule
//!   ([`battle::focus_deaths`]): a kill is worth [`PhalanxParams::kill`], a loss
//!   [`PhalanxParams::loss`] (above a kill: no even trades), minus the summed distance² from
//!   each of our ants to its nearest enemy, so that among equally safe moves the group
//!   closes in and holds the line at the edge of the enemy's reach. Where many of our ants
//!   stand close (xathis's 14 in an 11x11 box) even trades pay and the weights turn
//!   ([`PhalanxParams::bold_kill`], [`PhalanxParams::bold_loss`]); where we are few
//!   (fewer than [`FIGHT_MASS`] in the box and no own hill near) the group does not close
//!   in and a loss weighs four kills: lone ants keep out of reach. The hunter instead
//!   counted threats and support per square and let the ants drift into single file.
//! * **Approach**: an ant with no food to fetch, an enemy within [`APPROACH_REACH`] steps
//!   and at least [`FIGHT_MASS`] own ants around steps towards the nearest enemy, so the
//!   group's ants come up beside each other before contact.
//!
//! * **Economy** (`bot/economy.rs`, each part a switch in [`PhalanxParams`]): idle ants
//!   explore by explore value instead of all walking to the nearest square not seen
//!   lately, and only the [`RAIDERS`] nearest ants go for a known enemy hill instead of
//!   two in three of all ants. Against xathis on 8 maps in both seats (session 32) this
//!   gathered more food than he did in turns 100-199 (274 ants born to 238; the hunter
//!   238 to 246) and scored 27 points of 99 to the hunter's 20 of 100 in the same
//!   minutes. Distribution by owned area (also written, off) spread the ants thin: they
//!   saw more, but lone ants keep out of reach and lost the food near the enemy, 7 points
//!   of 95.
//!
//! * **Lone ants near the enemy** (session 33, three switches, all off): half of our ants
//!   that died in turns 100-299 against xathis died alone to two or more of his, most after
//!   ten turns or more near an enemy. Falling back to a group ([`PhalanxParams::regroup_reach`]),
//!   backing off as far as possible ([`PhalanxParams::keep_away`]) or running to support
//!   when engaged ([`PhalanxParams::rally`]) each scored fewer points against xathis than
//!   the phalanx without them, in the same minutes (docs/strength.md).
//! * **The threat field** (session 35, [`PhalanxParams::threat_steps`], off): per square,
//!   the enemies and own ants that can stand within attack range of it after two or three
//!   steps (BFS over the known map); weak ants do not step to or hold on squares where two
//!   or more enemies can come and outnumber ours, and a weak part's battle search counts
//!   each enemy in excess. Every weak ant moved by it, or only the search, lost in-process
//!   against the phalanx without it; only the idle weak ants with a margin of two held
//!   even there, and against xathis on 24 two-player maps in both seats that version
//!   scored 63 points to main's 72 in the same minutes (docs/strength.md, session 35).
//! * **xathis's escape and his attack on detached enemies** (session 37,
//!   [`PhalanxParams::escape`] and [`PhalanxParams::detached`], off): traced from the
//!   replays of session 35 ([`PhalanxBot::tracing`], `examples/phalanx_trace.rs`), every
//!   lone ant of ours that died to two or more of his in turns 100-299 was moved by the
//!   battle search in its last five turns, where xathis's own search skips a group of one
//!   ant and lets it escape (the best safe first step by a BFS over eight steps weighing
//!   own ants, enemies and open squares). With the escape, in-process against the
//!   phalanx without it 186 points to 189 on 34 maps in both seats, no food lost; against
//!   xathis on 24 two-player maps in both seats 70 points to main's 71 in the same minutes
//!   (25% each), with 23% fewer lone deaths (279 against 364): no gain in points, so off.
//!   The attack on detached enemies lost in-process (177 to 198) and was not timed
//!   (docs/strength.md, session 37).
//! * **xathis's fit for battle parts** (session 38, [`PhalanxParams::fit`], off): in
//!   session 37's games against xathis the group fights of turns 150-299 went our way (41
//!   of ours dead to 59 of his where two or more of ours were in range); the ants were lost
//!   one at a time, an ant of ours caught by two or more of his (419 of our 636 deaths, for
//!   1 of his), and 131 enemies fought an ant of ours whose part, full at five enemies, had
//!   left them out. Parts in which an ant joins only with all its enemies (xathis's rule)
//!   held even in-process (187 to 181) and against xathis on 24 maps in both seats scored
//!   82 points to main's 73 in the same minutes, 7 of the 9 in one game of a swing map,
//!   with the same deaths: no clear gain, so off (docs/strength.md, session 38).
//! * **Support for a hunted ant** (session 39, [`PhalanxParams::support_reach`], off): the
//!   caught ants of session 38 had been engaged alone for ten turns or more among five or
//!   more of his, brought there mostly by exploring. The nearest idle ants go towards an own
//!   ant engaged with two or more enemies in a weak spot. In-process against the phalanx
//!   without it within 10 steps 203 points to 173 on 34 maps in both seats (6, 14, 20 steps:
//!   169-199, 172-196, 183-183); against xathis on 35 two-player maps in both seats 86
//!   points to main's 93 in the same minutes, with 20% fewer lone deaths (429 against 538)
//!   but less food (951 born in turns 100-199 against 1,019): no gain, so off.
//! * **xathis's hill defence** (session 40, [`PhalanxParams::guard_reach`], and the hill's
//!   worth in the battle search, [`PhalanxParams::home_worth`], both off): in session 39's
//!   games our last hill fell in 61 of 70 (median turn 442), with 13 of ours to 64 of his
//!   alive and his ants around it for 30 turns before. One guard per enemy near our hill,
//!   on the enemy's path half way: in-process against the phalanx without it within 14
//!   steps 197 points to 170 on 34 maps in both seats (guards looked for within xathis's
//!   30 steps: 173-194); against xathis on 35 two-player maps in both seats 66 points to
//!   main's 96 in the same minutes: the hill fell later (median turn 506 against 450) but
//!   we razed fewer of his (23 against 33), losing 37 points on the two maps with many
//!   hills each: no gain, so off. The hill's worth held even in-process (180-183).
//! * **Hostile ground in exploration** (session 41, [`PhalanxParams::explore_avoid`], off):
//!   in session 40's games against xathis the two sides were born even until turn 200 (and
//!   we saw and held half the map), and the gap opened in turns 150-300 in deaths (901 of
//!   ours to 335 of his), most of them an ant of ours alone against two or more of his,
//!   which session 39 traced to exploring. Explorers that count the squares near an enemy
//!   seen in the last 20 turns as worth nothing gave up the ground near him and the food
//!   on it: in-process against the phalanx without it, within 8 steps 91 points to 268 on
//!   34 maps in both seats (726 ants born in turns 100-199 to 1,084), within 4 steps 157
//!   to 214; not taken to xathis, so off. Session 37's escape with session 38's fitted
//!   parts, at least even in-process (195-177) and never timed as a pair, scored 85 points
//!   to main's 91 against xathis on 32 two-player maps in both seats in the same minutes,
//!   with fewer of ours dead in turns 150-299 (712 against 825): both stay off.
//! * **Small groups close in** (session 42, [`PhalanxParams::group_size`], off): xathis's
//!   `approachEnemies` moves every ant of an area of five or more of his towards its nearest
//!   enemy within 12 steps, so his ants come in twos and threes; ours approached only with
//!   five in the 11x11 box. Ants of a linked group of three (each within 2 rows and columns
//!   of the next) that approach and fight as strong ([`PhalanxParams::group_fight`]) scored
//!   229 points to 157 in-process against the phalanx without it on 35 maps in both seats,
//!   but against xathis on the same 35 two-player maps in both seats 81 points to main's
//!   92 in the same minutes, with a better exchange in turns 150-199 (104 of his dead to 249
//!   of ours, main 91 to 268) that did not last: off.
//! * **A larger raid** (session 45, [`PhalanxParams::raid_share`],
//!   [`PhalanxParams::raid_reach`], [`PhalanxParams::raid_fight`],
//!   [`PhalanxParams::raid_muster`], all off): in session 42's games his hill was known
//!   before turn 200 in 80 of 130 and razed by us in 32, few of ours ever near it. A third
//!   of our ants within 40 steps sent at a known enemy hill, strong parts near it: even
//!   in-process (182 points to 200), against xathis on 35 two-player maps in both seats 56
//!   points to main's 92 in the same minutes (20 of his hills razed against 32, less
//!   food): off. Raiders that wait near his hill for others lost in-process (122-134 to
//!   230-245).
//! * **The standoff seen closing** (session 46, [`PhalanxParams::standoff_steps`],
//!   [`PhalanxParams::standoff_foes`]): in session 45's games a lone ant of ours stood off
//!   two or three of his at the front, on a square the one-move max-min finds safe, until
//!   more came and every square in reach was in range of two. Moving such ants out
//!   (sessions 33-41) ended the standoff and freed his ants as their deaths did. A weak part
//!   of one ant that ranks its equally safe moves by how many moves ahead it keeps a square
//!   fewer than two enemies can reach leaves only where the ring is closing: over three
//!   moves, against xathis on 35 two-player maps in both seats, 122 points to main's 90 in
//!   the same minutes (32% against 23%; better in 21 games, worse in 7), 400 lone deaths in
//!   turns 150-299 against 489; on 13 maps with fresh games (engine seed 3) 42 points to
//!   22, better in 6 games, worse in none: on by default (docs/strength.md, session 46 (A)).
//!
//! Measured (docs/strength.md, session 30, before the economy): in-process against the hunter on 34 two-player
//! maps in both seats, 263 points to 143 (the hunter against itself: 203 to 203); without
//! the closing-in term 180 to 216, so that term is the gain. Against xathis on 8 maps in
//! both seats, 16 points of 98 against the hunter's 17 of 100: half the hunter's losses in
//! turns 100-199 and more ants alive at turns 100 and 150, but no more food, so it does not
//! replace the hunter. Closing in at any mass lost every game against xathis.
//!
//! Large groups are searched in parts of at most [`PART`] own ants and as many enemies; the
//! own ants of the group outside the part stand where they were chosen to go (or where they
//! are, if not yet chosen). The search is cut by a node budget
//! ([`PhalanxParams::budget`] pair checks of the focus rule a turn), not by the clock, so a
//! turn's work is bounded and the same on every run; cut short, a part keeps the best fully
//! scored moves found ([`PhalanxParams::exact_cut`]). A guard on the clock
//! ([`PhalanxParams::clock_guard`]) stops the search only in a turn starved of the CPU.

use super::battle;
use super::economy::{Economy, OWN_NEIGHBOURS};
use super::*;
use std::collections::HashMap;

/// Pair checks of the focus rule the battles may spend in one turn (tens of milliseconds).
pub const BATTLE_BUDGET: u64 = 6_000_000;
/// At most this many own ants, and this many enemies, are searched together.
const PART: usize = 5;
/// Ants with an enemy within this many BFS steps close in on it.
pub const APPROACH_REACH: u32 = 12;
/// Own ants in the 11x11 box around an ant (itself included) for it to approach and fight
/// (fewer, and no own hill near: it keeps out of reach).
pub const FIGHT_MASS: usize = 5;
/// Own ants in the 11x11 box around one of a group's ants for the group to take even trades.
const BOLD_MASS: usize = 14;
/// Half the side of the box in which own ants are counted.
const MASS_BOX: usize = 5;
/// BFS steps over which xathis's areas grow from each ant (his `AREA_DIST`;
/// [`PhalanxParams::approach_area`]).
pub const AREA_REACH: u32 = 20;
/// Squares the economy may visit in one turn (a few milliseconds).
pub const ECONOMY_BUDGET: u64 = 3_000_000;
/// BFS steps within which the nearest own ants go for a known enemy hill (xathis: 20).
pub const RAID_REACH: u32 = 20;
/// Ants sent to each known enemy hill (xathis), and while we have at most
/// [`RAID_FEW`] ants, one.
const RAIDERS: usize = 4;
/// Up to this many ants, one raider per enemy hill.
const RAID_FEW: usize = 10;
/// BFS steps from a known enemy hill within which a raider waits for the others
/// ([`PhalanxParams::raid_muster`]).
pub const RAID_STAGE: u32 = 10;
/// Turns a square stays hostile after an enemy was last seen near it
/// ([`PhalanxParams::explore_avoid`]).
pub const HOSTILE_MEMORY: u32 = 20;
/// BFS steps within which a regrouping ant looks for a group or own hill to fall back to.
const RALLY_REACH: u32 = 40;
/// What one enemy in excess on a square of the threat field costs a weak part's search
/// (half a kill).
pub const THREAT_COST: i64 = 256;
/// Own ants within distance² 81 of a detached enemy for it to be attacked (xathis).
pub const DETACHED_SUPPORT: usize = 3;
/// BFS steps from a detached enemy within which our ants go for it, and how many of them
/// (xathis: 10 steps, six ants).
const DETACHED_REACH: u32 = 10;
const DETACHED_ANTS: usize = 6;
/// BFS steps over which xathis's escape weighs own ants, enemies and open squares.
const ESCAPE_STEPS: u32 = 8;
/// The most own ants called to support one hunted ant ([`PhalanxParams::support_reach`]).
const SUPPORT_ANTS: usize = 3;
/// BFS steps from the quarter-way square of an enemy's path within which a guard is looked
/// for ([`PhalanxParams::guard_reach`]); xathis looks within 30, which took explorers from
/// far and lost in-process (173 points to 194 on 34 maps in both seats, session 40).
const GUARD_SEARCH: u32 = 12;

/// The phalanx's choices, for measuring each against the hunter's way.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PhalanxParams {
    /// Ants near enemies step towards them (else they keep their exploration moves).
    pub approach: bool,
    /// Engaged ants move by the battle search (else by the hunter's safety rule).
    pub battles: bool,
    /// Worth of a kill.
    pub kill: i64,
    /// Cost of a loss.
    pub loss: i64,
    /// Worth of a kill where we are many.
    pub bold_kill: i64,
    /// Cost of a loss where we are many.
    pub bold_loss: i64,
    /// Score the distance² to the nearest enemy (close in), else only kills and losses.
    pub close_in: bool,
    /// Own ants in the 11x11 box around an ant (itself included) for it to approach
    /// enemies.
    pub fight_mass: usize,
    /// Own ants in that box around one of a part's ants for the part to close in; fewer,
    /// and no own hill near, and it keeps out of reach.
    pub hold_mass: usize,
    /// At most this many own ants, and (without [`PhalanxParams::fit`]) this many enemies,
    /// are searched together.
    pub part: usize,
    /// With [`PhalanxParams::fit`], at most this many enemies are searched together.
    pub part_foes: usize,
    /// xathis's fit (session 38): an own ant joins a battle part only with every enemy it
    /// is engaged with (within [`PhalanxParams::part_foes`]), so the search never moves an
    /// ant without the enemies that can reach it; else the part takes own ants and
    /// enemies breadth-first up to [`PhalanxParams::part`] each, and an ant near the end
    /// may fight enemies the search left out.
    pub fit: bool,
    /// Pair checks of the focus rule the battles may spend in one turn; one part at most
    /// [`PhalanxParams::part_share`] of it.
    pub budget: u64,
    /// One battle part may spend at most `budget / part_share` pair checks (4: a quarter),
    /// so a large part cut short leaves budget for the parts after it.
    pub part_share: u64,
    /// A guard on the wall clock (0 = off): once this many milliseconds have passed since
    /// the turn's message was read, the battle search stops as if its budget were spent
    /// (the parts not yet searched hold, a part being searched keeps the best moves
    /// found). The node budget keeps the games deterministic; the guard only keeps a turn
    /// on a loaded machine clear of the time limit, so it should never act where the
    /// machine is not starved (it is counted: [`PhalanxBot::guard_stops`]). 500 by
    /// default (session 48), and never more than a third of the turn's time when the
    /// setup tells it (`turntime`).
    pub clock_guard: u64,
    /// Idle ants step towards the largest explore value on their horizon (xathis), else
    /// to the nearest square not seen lately (the hunter).
    pub explore: bool,
    /// Idle ants with nothing to explore, or an enemy near, step to where our ants own the
    /// most area (xathis), else they explore the hunter's way.
    pub distribute: bool,
    /// Only the nearest ants within 20 steps of a known enemy hill go for it
    /// (xathis: four, one while we have ten ants or fewer), else the hunter's rush (every
    /// ant within 25 steps and two in three of the others).
    pub raiders: bool,
    /// Squares the economy (explore values and distribution) may visit in one turn; the
    /// idle ants left when it is spent explore the hunter's way.
    pub economy_budget: u64,
    /// Hostile ground in exploration (session 41; 0 = off): the squares within this many
    /// BFS steps of an enemy in view are hostile for 20 turns (`HOSTILE_MEMORY`), worth
    /// nothing to an explorer, and an idle ant with nothing else to explore holds rather
    /// than take the hunter's step onto hostile ground. Session 39's traces: most of our
    /// ants caught alone by two or more of xathis's had come to his ants exploring.
    pub explore_avoid: u32,
    /// An idle lone ant (fewer than [`PhalanxParams::fight_mass`] own ants in its box, no
    /// own hill near) with an enemy within this many BFS steps, and more enemies than own
    /// ants within this distance, falls back towards the nearest own ant that has that
    /// mass, or an own hill; 0: it keeps exploring.
    pub regroup_reach: u32,
    /// Where a part is weak (it keeps out of reach) and outnumbered (more enemies than own
    /// ants engaged), its ants also step as far from the enemies as they can (the
    /// distance² to the nearest enemy counts for them), else among safe squares they keep
    /// their wanted ones.
    pub keep_away: bool,
    /// Where a part is weak and outnumbered, its ants step towards the nearest own ant
    /// with [`PhalanxParams::fight_mass`] around it, or an own hill (fewest steps), so a
    /// hunted ant runs to support rather than anywhere out of reach; before `keep_away`.
    pub rally: bool,
    /// The threat field over this many moves (0: off): for each square, the enemies that
    /// can stand within attack range of it after that many steps (BFS over the known map)
    /// and our ants that can. A weak ant (fewer than [`PhalanxParams::hold_mass`] own ants
    /// in its box, no own hill near) that is not engaged does not step to or hold on a
    /// square where two or more enemies can come and they outnumber ours (it takes its
    /// least threatened square, its wanted ones first among equals); a weak part's battle
    /// search counts half a kill for each enemy in excess on each of its squares.
    pub threat_steps: u32,
    /// Which ants the threat field moves: 0 only the weak parts' battle search, 1 that and
    /// the weak ants not engaged that have no food, defence or hill to go for, 2 that and
    /// every weak ant not engaged.
    pub threat_scope: u8,
    /// A square of the threat field counts only where the enemies that can come outnumber
    /// ours by at least this many (1: any excess).
    pub threat_margin: u8,
    /// xathis's escape (session 37): an own ant within Manhattan distance 4 of an enemy
    /// (not 4 in a straight line: xathis's "dangered") that is alone in its battle part
    /// (no other own ant engaged with its enemies, fewer than
    /// [`PhalanxParams::hold_mass`] own ants in its box, no own hill near) is not searched
    /// (xathis's search skips a group of one of his), nor moved by the economy when idle:
    /// it takes xathis's escape step (see `escape_step` in the source). A lone ant going for
    /// food or a hill keeps its step where no enemy can reach attack range of it.
    pub escape: bool,
    /// xathis's attack on detached enemies (session 37): an enemy with no other enemy
    /// within 5 rows and 5 columns and at least 3 own ants within
    /// distance² 81 is a target. A battle part whose enemies are all targets fights as a
    /// strong one (closes in, a loss weighs 1.5 kills), and the own ants within 10 steps of
    /// a target with nothing else to do (the first six a BFS from it reaches) step towards
    /// it where no enemy can reach attack range of the step.
    pub detached: bool,
    /// Support for hunted ants (session 39; 0 = off): an own ant engaged with two or more
    /// enemies in a weak spot (fewer than [`PhalanxParams::hold_mass`] own ants in its box,
    /// no own hill near) calls the nearest own ants with nothing else to do (idle or
    /// approaching) within this many BFS steps, as many as the enemies engaged with it (at
    /// most three); each steps towards it, the hunter's safety rule still
    /// keeping it out of a fight it would lose.
    pub support_reach: u32,
    /// xathis's hill defence (session 40; 0 = off, xathis: 14): each enemy within this
    /// many BFS steps of an own hill, nearest first, gets one guard of ours, which steps
    /// towards the square half way along the enemy's path to the hill. The guard is an own
    /// ant with nothing else to do (not fighting, fetching food or raiding) on that path or
    /// next to it, else the nearest such ant within 12 steps of the square a
    /// quarter of the way; an enemy whose path already has a fighting ant or a guard of
    /// ours on it (more than 3 steps from the hill) is covered and gets none. The hunter's
    /// safety rule keeps a guard out of a fight it would lose.
    pub guard_reach: u32,
    /// What an enemy left standing on our hill after the move costs the battle search
    /// (session 40; 0 = off): that enemy razes it. The square is among the enemy's
    /// options whenever it can step there.
    pub home_worth: i64,
    /// The group approach (session 42; 0 = off): an own ant in a group of at least this
    /// many own ants steps towards its nearest enemy within
    /// [`PhalanxParams::group_reach`] BFS steps as the approach does with
    /// [`PhalanxParams::fight_mass`] around it (xathis's `approachEnemies`: every ant of an
    /// area of five or more of his). A group: own ants linked, transitively, when each is
    /// within [`PhalanxParams::group_link`] rows and columns of the next (1: the 8
    /// neighbours). The step is the approach's, so the hunter's safety rule keeps it out
    /// of a fight it would lose; an ant the step engages moves by the battle search.
    pub group_size: usize,
    /// Rows and columns within which two own ants are linked in a group
    /// ([`PhalanxParams::group_size`]).
    pub group_link: usize,
    /// BFS steps within which a group's ant approaches its nearest enemy
    /// ([`PhalanxParams::group_size`]; xathis: 12).
    pub group_reach: u32,
    /// With [`PhalanxParams::group_size`], a battle part with an ant of such a group is
    /// strong (closes in, a loss weighs 1.5 kills) as with
    /// [`PhalanxParams::hold_mass`] around it; else only the approach changes.
    pub group_fight: bool,
    /// A larger raid (session 45; 0 = off): while we have more than `RAID_FEW` ants, each
    /// known enemy hill draws this percentage of our ants (split between the hills, never
    /// fewer than `RAIDERS`), the nearest by BFS from the hill within
    /// [`PhalanxParams::raid_reach`] steps. Session 42's games against xathis: his hill
    /// known before turn 200 in 80 of 130 and razed by us in few, even where we had as many
    /// ants as he for hundreds of turns; four raiders walk in and stall at his defence.
    pub raid_share: usize,
    /// BFS steps from a known enemy hill within which our ants raid it (xathis: 20).
    pub raid_reach: u32,
    /// A battle part with an own ant within distance² 100 of a known enemy hill (the
    /// hunter's defence radius, mirrored) is strong: it closes in and a loss weighs 1.5
    /// kills, as near our own hill; else raiders there keep out of reach of his guards
    /// one at a time (session 42's replays: one to four of his near his hill for hundreds
    /// of turns, and as many of ours standing off).
    pub raid_fight: bool,
    /// Enemy replies pruned to our squares (session 46; xathis's dependency tables): in
    /// the battle search, an enemy's squares out of attack range of every square our
    /// ants hold in the assignment being tried (the part's and the fixed ants') are
    /// searched as one, where the search otherwise tries each square in range of any
    /// square our ants might take. The value of every assignment is the same (the score
    /// sees an enemy only through the ants in its range); fewer replies are scored, so
    /// large parts are searched further within the budget (session 45's 70 games against
    /// xathis: 677 of 5,601 parts of five and five cut short, and 101 of our 416 deaths in
    /// turns 150-299 that were not lone ants caught by two came in cut parts).
    pub prune_replies: bool,
    /// Without [`PhalanxParams::fit`], at most this many enemies in a part (session 46;
    /// 0 = as many as [`PhalanxParams::part`]): the enemies engaged with the part's ants
    /// that did not fit were left out of its search, and in session 45's games 119 of our
    /// ants in turns 150-299 died to two or more of his with an own ant beside them, most in
    /// parts of five enemies with some left out. Pruned replies
    /// ([`PhalanxParams::prune_replies`]) make the larger parts affordable.
    pub cut_foes: usize,
    /// The raid musters (session 45; 0 = off): a raider within `RAID_STAGE` BFS steps of
    /// a known enemy hill goes on only with at least this many own ants in its 11x11 box
    /// (itself included); else it holds there for the others to come up, so the raid
    /// arrives together rather than one ant at a time.
    pub raid_muster: usize,
    /// The standoff seen closing (session 46; 0 = off, else 2 or more; 3 by default since
    /// session 46's windows against xathis): a weak battle part
    /// of one own ant ranks its squares by how many moves ahead, up to this many, it can
    /// still step to a square that fewer than [`PhalanxParams::standoff_foes`] enemies can
    /// reach attack range of (each enemy moving as often as we do: BFS over the known
    /// land), so among moves the one-move max-min scores alike it takes one that keeps a
    /// way out, the wanted order kept among equals. Session 45's traces: 405 of our 486
    /// ants that died alone to two or more of xathis's in turns 150-299 were such parts,
    /// holding at distance² 6-20 of his ants on a square safe for one move while more of
    /// his came up, until every square in reach was in range of two. Session 48 (A): with
    /// mixed food most lone ants caught by two still had a way out seen three moves ahead
    /// when they took the move that doomed them (the ring closed four to seven moves
    /// later); five moves is the candidate against xathis (docs/strength.md).
    pub standoff_steps: u32,
    /// Enemies able to reach attack range of a square that close it
    /// ([`PhalanxParams::standoff_steps`]; 2: a second enemy, as the lone ants died).
    pub standoff_foes: u8,
    /// The enemies left out of a part stand in its search (session 47; off by default):
    /// each enemy engaged with one of the part's ants that did not fit in the part's
    /// enemies ([`PhalanxParams::cut_foes`]) is placed, without replies, on its square in
    /// every position the part's search scores, so the part's ants see its attack range
    /// (losses to it count; its own death does not, as it need not stay). Without it the
    /// search scores those squares as if the enemy were not there: with rich food (engine
    /// seed 2 and like seeds), 45% of our deaths in turns 100-299 that were not lone ants
    /// caught by two came in parts with an enemy left out.
    pub still_foes: bool,
    /// xathis's areas in the approach (session 47; 0 = off): an own ant with an enemy
    /// within 12 BFS steps (`APPROACH_REACH`) also steps towards the nearest one where its
    /// area holds at least this many own ants or an own hill (xathis's `createAreas` and
    /// `approachEnemies`, 5: a BFS from every ant in view over the land up to
    /// 20 steps (`AREA_REACH`), each square to the ant nearest it; own ants whose squares
    /// touch share an area). Without it an ant approaches only with
    /// [`PhalanxParams::fight_mass`] own ants in its 11x11 box. The step is the approach's,
    /// so the hunter's safety rule keeps it out of a fight it would lose, and an ant the
    /// step engages moves by the battle search. Session 47's replays of rich food (engine
    /// seeds 2, 10, 19, 20): in turns 40-99 his ants stood within distance² 20 of ours 13%
    /// more often than ours of his, while ours outnumbered his at distance² 51-200, most of
    /// them exploring.
    pub approach_area: usize,
    /// A part's search cut short keeps only fully scored moves (session 48; on by
    /// default): when the budget runs out while the enemies' replies to an assignment of
    /// our moves are being tried, the worst reply found so far is only a bound from above
    /// on that assignment's worth, and without this switch the assignment is kept as the
    /// best whenever that bound beats the best fully scored one. So a cut part could take
    /// moves that lose ants (an ant stepping into range of two) over moves it had scored
    /// safe. With it, the partly scored assignment is kept only if no assignment was
    /// fully scored.
    pub exact_cut: bool,
}

impl Default for PhalanxParams {
    fn default() -> PhalanxParams {
        // xathis's weights: 512 and 768, 300 and 180 when aggressive
        PhalanxParams {
            approach: true,
            battles: true,
            kill: 512,
            loss: 768,
            bold_kill: 300,
            bold_loss: 180,
            close_in: true,
            fight_mass: FIGHT_MASS,
            hold_mass: FIGHT_MASS,
            part: PART,
            part_foes: PART,
            fit: false,
            // sixteen times the budget (session 48 (B); four times since session 47 (A)),
            // with pruned replies and parts of up to 8 enemies below: parts large enough for
            // the fights of rich food. Against xathis over two windows his dead per ours 0.59
            // against 0.52 (better in 52 games of 94, worse in 16), points within noise; the
            // longest turn 302 ms, so the clock guard keeps a starved turn clear of the limit
            // (it never acted in those 94 games) (docs/strength.md, session 48)
            budget: 16 * BATTLE_BUDGET,
            part_share: 4,
            clock_guard: 500,
            explore: true,
            // distribution spread the ants thin and lost points against xathis
            // (docs/strength.md, session 32)
            distribute: false,
            raiders: true,
            economy_budget: ECONOMY_BUDGET,
            explore_avoid: 0,
            regroup_reach: 0,
            keep_away: false,
            rally: false,
            threat_steps: 0,
            threat_scope: 2,
            threat_margin: 1,
            escape: false,
            detached: false,
            support_reach: 0,
            guard_reach: 0,
            home_worth: 0,
            group_size: 0,
            group_link: 2,
            group_reach: APPROACH_REACH,
            group_fight: false,
            raid_share: 0,
            raid_reach: RAID_REACH,
            raid_fight: false,
            raid_muster: 0,
            // on since session 47: against xathis better in 8 games and worse in 1 of 120
            // pairs, his dead per ours 0.50 against 0.42 (docs/strength.md, session 47 (A))
            prune_replies: true,
            cut_foes: 8,
            standoff_steps: 3,
            standoff_foes: 2,
            still_foes: false,
            approach_area: 0,
            // on since session 48 (A): a cut part kept a bound from above as a value, and
            // stepped into losing fights; against xathis his dead per ours better in 27
            // games, worse in 13 of 52, points even (docs/strength.md, session 48 (A))
            exact_cut: true,
        }
    }
}

/// What chose an own ant's order in a turn (for tracing: [`PhalanxBot::tracing`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mover {
    /// Going for a food.
    Food,
    /// Defending our hill or going for an enemy hill.
    Hill,
    /// Approaching a near enemy with enough own ants around.
    Approach,
    /// Nothing else to do: exploring (or holding).
    Explore,
    /// The battle search.
    Battle,
    /// The attack on a detached enemy ([`PhalanxParams::detached`]).
    Detached,
    /// xathis's escape ([`PhalanxParams::escape`]).
    Escape,
    /// Going to support an own ant engaged with two or more enemies
    /// ([`PhalanxParams::support_reach`]).
    Support,
    /// Guarding our hill against an enemy near it ([`PhalanxParams::guard_reach`]).
    Guard,
}

/// The phalanx bot: see the module docs.
#[derive(Clone, Debug)]
pub struct PhalanxBot {
    h: HunterBot,
    params: PhalanxParams,
    /// The most pair checks any one turn's battles used.
    most: u64,
    /// Parts searched, and those cut short by the budget, over the game.
    parts: (u64, u64),
    /// When the turn's message was read (for [`PhalanxParams::clock_guard`]).
    turn_start: Option<std::time::Instant>,
    /// Turns whose battle search the clock guard stopped.
    guard_stops: u64,
    /// Explore values and the search marks of the economy.
    economy: Economy,
    /// The most squares any one turn's economy visited.
    most_economy: u64,
    /// With tracing on, each own ant's square and what chose its order in the last turn.
    movers: Option<Vec<(Loc, Mover)>>,
    /// With tracing on, the parts the battle search saw in the last turn.
    parts_seen: Vec<PartTrace>,
}

/// One part of a battle as the search saw it (for tracing: [`PhalanxBot::parts_seen`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartTrace {
    /// Our part's ants, where they stood.
    pub ours: Vec<Loc>,
    /// The enemies searched against them, where they stood.
    pub foes: Vec<Loc>,
    /// Enemies engaged with our part's ants but left out of the part (it was full).
    pub left_out: Vec<Loc>,
    /// Our other ants fighting beside the part (engaged with its enemies), fixed.
    pub fixed: usize,
    /// How the part was scored: 2 bold (even trades pay), 1 strong, 0 weak.
    pub strength: u8,
    /// Whether the search ran out of its budget before trying all of our moves.
    pub cut: bool,
}

impl PhalanxBot {
    /// A phalanx bot; `salt` only varies tie-breaks between seats.
    pub fn new(salt: u64) -> PhalanxBot {
        PhalanxBot::with_params(salt, PhalanxParams::default())
    }

    /// A phalanx bot with other choices than the default ones.
    pub fn with_params(salt: u64, params: PhalanxParams) -> PhalanxBot {
        PhalanxBot {
            h: HunterBot::new(salt),
            params,
            most: 0,
            parts: (0, 0),
            turn_start: None,
            guard_stops: 0,
            economy: Economy::default(),
            most_economy: 0,
            movers: None,
            parts_seen: Vec::new(),
        }
    }

    /// The same bot recording what chose each ant's order ([`PhalanxBot::movers`]); its
    /// orders are the same.
    pub fn tracing(mut self) -> PhalanxBot {
        self.movers = Some(Vec::new());
        self
    }

    /// With [`PhalanxBot::tracing`], each own ant's square and what chose its order in the
    /// last turn (empty without it).
    pub fn movers(&self) -> &[(Loc, Mover)] {
        self.movers.as_deref().unwrap_or(&[])
    }

    /// With [`PhalanxBot::tracing`], the battle parts searched in the last turn (empty
    /// without it); a part left to xathis's escape is not among them.
    pub fn parts_seen(&self) -> &[PartTrace] {
        &self.parts_seen
    }

    /// The most squares any one turn's economy visited so far.
    pub fn most_economy_work(&self) -> u64 {
        self.most_economy
    }

    /// The most pair checks of the focus rule any one turn's battles used so far.
    pub fn most_battle_work(&self) -> u64 {
        self.most
    }

    /// Turns so far whose battle search the clock guard ([`PhalanxParams::clock_guard`])
    /// stopped.
    pub fn guard_stops(&self) -> u64 {
        self.guard_stops
    }

    /// The parts searched so far, and how many of them the budget cut short.
    pub fn parts_searched(&self) -> (u64, u64) {
        self.parts
    }

    /// For each own ant, the own ants in the 11x11 box around it, itself included.
    fn mass(&self, t: Torus, ants: &[Loc]) -> Vec<usize> {
        let near = |a: usize, b: usize, n: usize| {
            let d = a.abs_diff(b);
            d.min(n - d) <= MASS_BOX
        };
        ants.iter()
            .map(|&a| {
                ants.iter()
                    .filter(|&&b| near(a.0, b.0, t.rows) && near(a.1, b.1, t.cols))
                    .count()
            })
            .collect()
    }

    /// For each own ant, the size of its group: own ants linked, transitively, when each
    /// is within `link` rows and columns of the next ([`PhalanxParams::group_size`]).
    pub(super) fn groups(t: Torus, ants: &[Loc], link: usize) -> Vec<usize> {
        let near = |a: usize, b: usize, n: usize| {
            let d = a.abs_diff(b);
            d.min(n - d) <= link
        };
        let mut comp = vec![usize::MAX; ants.len()];
        let mut sizes = Vec::new();
        for s in 0..ants.len() {
            if comp[s] != usize::MAX {
                continue;
            }
            let c = sizes.len();
            comp[s] = c;
            let mut stack = vec![s];
            let mut size = 0;
            while let Some(i) = stack.pop() {
                size += 1;
                for j in 0..ants.len() {
                    if comp[j] == usize::MAX
                        && near(ants[i].0, ants[j].0, t.rows)
                        && near(ants[i].1, ants[j].1, t.cols)
                    {
                        comp[j] = c;
                        stack.push(j);
                    }
                }
            }
            sizes.push(size);
        }
        comp.into_iter().map(|c| sizes[c]).collect()
    }

    /// Whether a known enemy hill is within the hunter's defence radius of `a`.
    fn near_enemy_home(&self, t: Torus, a: Loc) -> bool {
        self.h
            .k
            .enemy_hills
            .iter()
            .any(|&h| t.distance(a, h) <= DEFENCE_RADIUS2)
    }

    /// Whether an own hill is within the hunter's defence radius of `a`.
    fn near_home(&self, t: Torus, a: Loc) -> bool {
        self.h
            .k
            .my_hills
            .iter()
            .any(|&h| t.distance(a, h) <= DEFENCE_RADIUS2)
    }

    /// The approach steps: for each ant with an enemy within [`APPROACH_REACH`] steps and
    /// [`FIGHT_MASS`] own ants around (or our hill near), its steps towards the nearest
    /// enemy.
    ///
    /// With [`PhalanxParams::group_size`], an ant of a group that large (`group`) also
    /// steps towards its nearest enemy within [`PhalanxParams::group_reach`] steps.
    fn approach(
        &self,
        t: Torus,
        ants: &[Loc],
        mass: &[usize],
        group: &[usize],
    ) -> Vec<Option<Wanted>> {
        let k = &self.h.k;
        if k.enemies.is_empty() {
            return vec![None; ants.len()];
        }
        let p = self.params;
        let foes: Vec<Loc> = k.enemies.iter().map(|&(e, _)| e).collect();
        let reach = if p.group_size > 0 {
            APPROACH_REACH.max(p.group_reach)
        } else {
            APPROACH_REACH
        };
        let field = self.h.distances(t, &foes, reach);
        let area = if p.approach_area > 0 {
            self.areas(t, ants)
        } else {
            Vec::new()
        };
        ants.iter()
            .enumerate()
            .map(|(i, &a)| {
                let d = field[t.index(a)];
                let strong = mass[i] >= p.fight_mass
                    || self.near_home(t, a)
                    || (p.approach_area > 0 && area[i] >= p.approach_area);
                let grouped = p.group_size > 0 && group[i] >= p.group_size;
                let near = (d <= APPROACH_REACH && strong) || (d <= p.group_reach && grouped);
                (d > 0 && near)
                    .then(|| self.h.descend(t, &field, a))
                    .flatten()
            })
            .collect()
    }

    /// xathis's areas (`createAreas`; [`PhalanxParams::approach_area`]): per own ant, the
    /// own ants in its area, or `usize::MAX` where the area holds an own hill. A BFS over
    /// the known land (unseen squares count as land) from every own ant and every enemy
    /// in view at once, up to [`AREA_REACH`] steps, gives each square to the ant that
    /// reaches it first; two own ants share an area when a square of one touches a square
    /// of the other (transitively).
    pub(super) fn areas(&self, t: Torus, ants: &[Loc]) -> Vec<usize> {
        let k = &self.h.k;
        let n = t.area();
        let mut owner = vec![u32::MAX; n];
        let mut dist = vec![0u32; n];
        let mut q = VecDeque::new();
        let sources = ants
            .iter()
            .copied()
            .chain(k.enemies.iter().map(|&(e, _)| e));
        for (s, l) in sources.enumerate() {
            let i = t.index(l);
            if owner[i] == u32::MAX {
                owner[i] = s as u32;
                q.push_back(l);
            }
        }
        // union-find over our ants
        let mut up: Vec<usize> = (0..ants.len()).collect();
        fn root(up: &mut [usize], mut x: usize) -> usize {
            while up[x] != x {
                up[x] = up[up[x]];
                x = up[x];
            }
            x
        }
        let ours = ants.len() as u32;
        while let Some(c) = q.pop_front() {
            let ci = t.index(c);
            if dist[ci] >= AREA_REACH {
                continue;
            }
            for dir in Dir::ALL {
                let nb = t.step(c, dir);
                let ni = t.index(nb);
                if k.water[ni] {
                    continue;
                }
                if owner[ni] == u32::MAX {
                    owner[ni] = owner[ci];
                    dist[ni] = dist[ci] + 1;
                    q.push_back(nb);
                } else if owner[ni] < ours && owner[ci] < ours {
                    let (a, b) = (
                        root(&mut up, owner[ni] as usize),
                        root(&mut up, owner[ci] as usize),
                    );
                    up[a] = b;
                }
            }
        }
        let mut size = vec![0usize; ants.len()];
        for i in 0..ants.len() {
            let r = root(&mut up, i);
            size[r] += 1;
        }
        for &h in &k.my_hills {
            let o = owner[t.index(h)];
            if o < ours {
                let r = root(&mut up, o as usize);
                size[r] = usize::MAX;
            }
        }
        (0..ants.len()).map(|i| size[root(&mut up, i)]).collect()
    }

    /// xathis's raiders: for each known enemy hill, the first [`RAIDERS`] own ants (one
    /// while we have [`RAID_FEW`] or fewer) that a breadth-first search from the hill
    /// reaches within [`PhalanxParams::raid_reach`] steps ([`RAID_REACH`] by default); with
    /// [`PhalanxParams::raid_share`], that share of our ants split between the hills.
    fn raiders(&self, t: Torus, ants: &[Loc], ant_at: &[u32]) -> Vec<bool> {
        let k = &self.h.k;
        let mut out = vec![false; ants.len()];
        let p = self.params;
        let count = if ants.len() <= RAID_FEW {
            1
        } else if p.raid_share > 0 && !k.enemy_hills.is_empty() {
            RAIDERS.max(ants.len() * p.raid_share / 100 / k.enemy_hills.len())
        } else {
            RAIDERS
        };
        for &h in &k.enemy_hills {
            let mut seen = vec![false; t.area()];
            seen[t.index(h)] = true;
            let mut q = VecDeque::from([(h, 0u32)]);
            let mut left = count;
            while let Some((c, d)) = q.pop_front() {
                let a = ant_at[t.index(c)];
                // (with the larger raid an ant counts for one hill only)
                if a != u32::MAX && (p.raid_share == 0 || !out[a as usize]) {
                    out[a as usize] = true;
                    left -= 1;
                    if left == 0 {
                        break;
                    }
                }
                if d >= p.raid_reach {
                    continue;
                }
                for dir in Dir::ALL {
                    let n = t.step(c, dir);
                    let i = t.index(n);
                    if !seen[i] && !k.water[i] {
                        seen[i] = true;
                        q.push_back((n, d + 1));
                    }
                }
            }
        }
        out
    }

    /// The raid's muster ([`PhalanxParams::raid_muster`]): each raider within
    /// [`RAID_STAGE`] steps of a known enemy hill with fewer than that many own ants in its
    /// box stops raiding and holds (its extra step, before exploring, is to stay).
    fn muster(
        &self,
        t: Torus,
        ants: &[Loc],
        mass: &[usize],
        raiders: Option<&mut [bool]>,
        extra: Option<&mut [Option<Wanted>]>,
    ) {
        let k = &self.h.k;
        let (Some(raiders), Some(extra)) = (raiders, extra) else {
            return;
        };
        if k.enemy_hills.is_empty() {
            return;
        }
        let field = self.h.distances(t, &k.enemy_hills, RAID_STAGE);
        for (i, &a) in ants.iter().enumerate() {
            if raiders[i] && field[t.index(a)] <= RAID_STAGE && mass[i] < self.params.raid_muster {
                raiders[i] = false;
                extra[i] = Some(Vec::new());
            }
        }
    }

    /// xathis's economy for the `idle` ants (`bot/economy.rs`): those with an enemy near
    /// step to where our ants own the most area, the others towards the best explore value
    /// on their horizon, and those with nothing to explore again by owned area; each
    /// choice replaces the hunter's exploration in `wanted` and is seen by the ants after
    /// it. Stops when [`PhalanxParams::economy_budget`] squares have been visited (the
    /// rest keep the hunter's steps).
    fn economy(&mut self, t: Torus, ants: &[Loc], wanted: &mut [Wanted], idle: &[bool]) {
        let p = self.params;
        if !p.explore && !p.distribute {
            return;
        }
        let k = &self.h.k;
        let eco = &mut self.economy;
        let mut sources = ants.to_vec();
        sources.extend(&k.my_hills);
        let mut work = eco.cover(t, &k.water, &sources, k.turn);
        let foes: Vec<Loc> = k.enemies.iter().map(|&(e, _)| e).collect();
        let memory = if p.explore_avoid > 0 {
            work += eco.mark_hostile(t, &k.water, &foes, p.explore_avoid, k.turn);
            HOSTILE_MEMORY
        } else {
            0
        };
        // where each own ant will stand: its first wanted square, or where it is
        let mut at: Vec<Loc> = ants
            .iter()
            .zip(wanted.iter())
            .map(|(&a, w)| w.first().map_or(a, |&(l, _)| l))
            .collect();
        let near_field = (!foes.is_empty()).then(|| self.h.distances(t, &foes, APPROACH_REACH));
        let allowed =
            |l: Loc| !k.water[t.index(l)] && !k.food.contains(&l) && !k.my_hills.contains(&l);
        let manhattan = |a: Loc, b: Loc| {
            let dr = a.0.abs_diff(b.0);
            let dc = a.1.abs_diff(b.1);
            dr.min(t.rows - dr) + dc.min(t.cols - dc)
        };
        let mut done = vec![false; ants.len()];
        // 0: idle ants with an enemy near distribute; 1: the others explore; 2: those with
        // nothing to explore distribute
        for pass in 0..3 {
            if (pass != 1 && !p.distribute) || (pass == 1 && !p.explore) {
                continue;
            }
            for i in 0..ants.len() {
                if !idle[i] || done[i] || work >= p.economy_budget {
                    continue;
                }
                let a = ants[i];
                let near = near_field
                    .as_deref()
                    .is_some_and(|f| f[t.index(a)] <= APPROACH_REACH);
                if pass == 0 && !near {
                    continue;
                }
                let steps: Vec<Loc> = if pass == 1 {
                    let (s, w) = eco.explore(t, &k.water, (a, k.turn, memory), allowed);
                    work += w;
                    if s.is_empty() && memory > 0 && !k.my_hills.contains(&a) {
                        // nothing worth exploring: hold rather than walk onto hostile
                        // ground the hunter's way
                        let first = wanted[i].first().map_or(a, |&(l, _)| l);
                        if eco.hostile(t.index(first), k.turn, memory) {
                            done[i] = true;
                            wanted[i] = vec![(a, false)];
                        }
                    }
                    s
                } else {
                    let mut options: Vec<Loc> = Dir::ALL
                        .into_iter()
                        .map(|d| t.step(a, d))
                        .filter(|&l| allowed(l))
                        .collect();
                    if !k.my_hills.contains(&a) {
                        options.push(a);
                    }
                    let others: Vec<(Loc, bool)> = foes
                        .iter()
                        .map(|&e| (e, false))
                        .chain(
                            at.iter()
                                .enumerate()
                                .filter(|&(j, _)| j != i)
                                .map(|(_, &l)| (l, true)),
                        )
                        .filter(|&(l, _)| manhattan(l, a) <= OWN_NEIGHBOURS)
                        .collect();
                    let (s, w) = eco.distribute(t, &k.water, &options, &others);
                    work += w;
                    s
                };
                if steps.is_empty() {
                    continue;
                }
                done[i] = true;
                at[i] = steps[0];
                wanted[i] = steps.into_iter().map(|l| (l, false)).collect();
            }
        }
        self.most_economy = self.most_economy.max(work);
    }

    /// Lone ants near the enemy fall back ([`PhalanxParams::regroup_reach`]): each `idle`
    /// ant with fewer than [`PhalanxParams::fight_mass`] own ants in its box, no own hill
    /// near, an enemy within that many steps and more enemies than own ants within that
    /// distance steps towards the nearest own ant that has that mass, or an own hill. Session 33's replays of session 32's games against xathis
    /// had half of our ants that died in turns 100-299 die alone to two or more enemies (his:
    /// a tenth), most of them after ten turns or more near an enemy, far from home: a lone
    /// ant that keeps out of reach but keeps its exploring step lingers at the edge of reach
    /// until a second enemy comes up.
    fn regroup(
        &self,
        t: Torus,
        ants: &[Loc],
        mass: &[usize],
        wanted: &mut [Wanted],
        idle: &[bool],
    ) {
        let p = self.params;
        let k = &self.h.k;
        if p.regroup_reach == 0 || k.enemies.is_empty() {
            return;
        }
        let foes: Vec<Loc> = k.enemies.iter().map(|&(e, _)| e).collect();
        let near = self.h.distances(t, &foes, p.regroup_reach);
        // more enemies than own ants within the reach (as the crow flies)
        let r2 = (p.regroup_reach * p.regroup_reach) as usize;
        let outnumbered = |a: Loc| {
            let theirs = foes.iter().filter(|&&e| t.distance(a, e) <= r2).count();
            let ours = ants.iter().filter(|&&b| t.distance(a, b) <= r2).count();
            theirs > ours
        };
        let lone: Vec<usize> = (0..ants.len())
            .filter(|&i| {
                idle[i]
                    && mass[i] < p.fight_mass
                    && near[t.index(ants[i])] <= p.regroup_reach
                    && !self.near_home(t, ants[i])
                    && outnumbered(ants[i])
            })
            .collect();
        if lone.is_empty() {
            return;
        }
        let field = self.rally_field(t, ants, mass);
        for i in lone {
            if let Some(steps) = self.h.descend(t, &field, ants[i]) {
                wanted[i] = steps;
            }
        }
    }

    /// The threat field ([`PhalanxParams::threat_steps`]; empty when off or no enemy is
    /// known), and the weak ants' wanted squares re-ranked by it: where the first of them
    /// (or holding, for an ant with none) has enemies in excess, the ant takes the least
    /// threatened of its squares (holding and every land step not onto food), its wanted
    /// ones first among equals. Session 33's replays: most of our ants lost in turns 100-299
    /// died alone to two or more enemies, the second and third coming from outside the one
    /// move the battle search sees.
    fn threat(
        &self,
        t: Torus,
        ants: &[Loc],
        mass: &[usize],
        wanted: &mut [Wanted],
        idle: &[bool],
    ) -> Vec<u8> {
        let p = self.params;
        let k = &self.h.k;
        if p.threat_steps == 0 || k.enemies.is_empty() {
            return Vec::new();
        }
        let foes: Vec<Loc> = k.enemies.iter().map(|&(e, _)| e).collect();
        let danger = threat_field(
            t,
            &k.water,
            k.attackradius2,
            (&foes, ants),
            p.threat_steps,
            p.threat_margin,
        );
        for (i, &a) in ants.iter().enumerate() {
            let moved = match p.threat_scope {
                0 => false,
                1 => idle[i],
                _ => true,
            };
            if !moved || mass[i] >= p.hold_mass || self.near_home(t, a) {
                continue;
            }
            let first = wanted[i].first().map_or(a, |&(l, _)| l);
            if danger[t.index(first)] == 0 {
                continue;
            }
            let mut options: Vec<Loc> = wanted[i].iter().map(|&(l, _)| l).collect();
            options.extend(self.reach(t, a));
            let mut seen = Vec::new();
            options.retain(|&l| {
                let fresh = !seen.contains(&l);
                seen.push(l);
                fresh
            });
            // stable: among equally threatened squares the wanted order, then holding
            options.sort_by_key(|&l| danger[t.index(l)]);
            wanted[i] = options.into_iter().map(|l| (l, false)).collect();
        }
        danger
    }

    /// Support for hunted ants ([`PhalanxParams::support_reach`]): per own ant, whether it
    /// was sent to support one, its `wanted` steps replaced by the steps towards the
    /// hunted ant. Session 38's replays: 419 of our 636 deaths in turns 150-299 against
    /// xathis were an ant of ours caught alone by two or more of his, most of them engaged
    /// in a weak part for ten turns or more with no own ant near (session 39's count).
    fn support(
        &self,
        t: Torus,
        ants: &[Loc],
        mass: &[usize],
        wanted: &mut [Wanted],
        movable: &[bool],
    ) -> Vec<bool> {
        let p = self.params;
        let k = &self.h.k;
        let mut sent = vec![false; ants.len()];
        if p.support_reach == 0 || k.enemies.is_empty() {
            return sent;
        }
        let engaged: Vec<usize> = ants
            .iter()
            .map(|&a| {
                k.enemies
                    .iter()
                    .filter(|&&(e, _)| self.engaged(t, a, e))
                    .count()
            })
            .collect();
        for (h, &a) in ants.iter().enumerate() {
            if engaged[h] < 2 || mass[h] >= p.hold_mass || self.near_home(t, a) {
                continue;
            }
            let field = self.h.distances(t, &[a], p.support_reach);
            let mut helpers: Vec<(u32, usize)> = (0..ants.len())
                .filter(|&i| movable[i] && !sent[i] && engaged[i] == 0)
                .map(|i| (field[t.index(ants[i])], i))
                .filter(|&(d, _)| d <= p.support_reach)
                .collect();
            helpers.sort_unstable();
            for (_, i) in helpers.into_iter().take(engaged[h].min(SUPPORT_ANTS)) {
                if let Some(steps) = self.h.descend(t, &field, ants[i]) {
                    wanted[i] = steps;
                    sent[i] = true;
                }
            }
        }
        sent
    }

    /// xathis's hill defence ([`PhalanxParams::guard_reach`]): per own ant, whether it
    /// was made a guard, its `wanted` steps replaced by the steps towards the half-way
    /// square of its enemy's path to our hill. `free`: the own ants with nothing else to
    /// do; `covering`: those already standing in the way (fighting). Session 39's games
    /// against xathis: our last hill fell in 61 of 70, with a median of 3 of ours and 8 of
    /// his within distance² 100 of it three turns before (session 40's count).
    fn guard(
        &self,
        t: Torus,
        (ants, ant_at): (&[Loc], &[u32]),
        free: &[bool],
        covering: &[bool],
        wanted: &mut [Wanted],
    ) -> Vec<bool> {
        let p = self.params;
        let k = &self.h.k;
        let mut sent = vec![false; ants.len()];
        if p.guard_reach == 0 || k.enemies.is_empty() {
            return sent;
        }
        let n = t.area();
        for &hill in &k.my_hills {
            // BFS from the hill: steps, and the square one step nearer the hill
            let mut dist = vec![u32::MAX; n];
            let mut prev = vec![hill; n];
            dist[t.index(hill)] = 0;
            let mut q = VecDeque::from([hill]);
            while let Some(c) = q.pop_front() {
                let d = dist[t.index(c)];
                if d >= p.guard_reach {
                    continue;
                }
                for dir in Dir::ALL {
                    let nb = t.step(c, dir);
                    let i = t.index(nb);
                    if dist[i] == u32::MAX && !k.water[i] {
                        dist[i] = d + 1;
                        prev[i] = c;
                        q.push_back(nb);
                    }
                }
            }
            let mut threats: Vec<(u32, Loc)> = k
                .enemies
                .iter()
                .map(|&(e, _)| (dist[t.index(e)], e))
                .filter(|&(d, _)| d <= p.guard_reach)
                .collect();
            threats.sort_unstable();
            for (d, e) in threats {
                // the enemy's path to the hill: path[i] is d - i steps from it
                let mut path = vec![e];
                while *path.last().unwrap_or(&hill) != hill {
                    let c = *path.last().unwrap_or(&hill);
                    path.push(prev[t.index(c)]);
                }
                let at = |steps: u32| {
                    if steps > 1 {
                        path[(d - steps) as usize]
                    } else {
                        hill
                    }
                };
                let (half, quarter) = (at(d / 2), at(d / 4));
                // an own ant on the path or beside it (nearest the enemy first): a free one
                // guards, one in the way covers the enemy
                let mut guard = None;
                let mut covered = false;
                'path: for (i, &c) in path.iter().enumerate().take(path.len() - 1) {
                    let beyond = d - i as u32 > 3;
                    for s in
                        std::iter::once(c).chain(Dir::ALL.into_iter().map(|dir| t.step(c, dir)))
                    {
                        let a = ant_at[t.index(s)];
                        if a == u32::MAX {
                            continue;
                        }
                        let a = a as usize;
                        if free[a] && !sent[a] {
                            guard = Some(a);
                            break 'path;
                        }
                        if beyond && (covering[a] || sent[a]) {
                            covered = true;
                            break 'path;
                        }
                    }
                }
                if covered {
                    continue;
                }
                if guard.is_none() {
                    let field = self.h.distances(t, &[quarter], GUARD_SEARCH);
                    guard = (0..ants.len())
                        .filter(|&i| free[i] && !sent[i])
                        .map(|i| (field[t.index(ants[i])], i))
                        .filter(|&(f, _)| f <= GUARD_SEARCH)
                        .min()
                        .map(|(_, i)| i);
                }
                let Some(g) = guard else { continue };
                sent[g] = true;
                let a = ants[g];
                wanted[g] = if a == half {
                    vec![(a, false)]
                } else {
                    let field = self.h.distances(t, &[half], 2 * GUARD_SEARCH);
                    let mut steps = self.h.descend(t, &field, a).unwrap_or_default();
                    steps.retain(|(l, _)| !k.food.contains(l));
                    steps
                };
            }
        }
        sent
    }

    /// Per square, BFS steps (up to [`RALLY_REACH`]) to the nearest own ant with
    /// [`PhalanxParams::fight_mass`] own ants around it, or to an own hill.
    fn rally_field(&self, t: Torus, ants: &[Loc], mass: &[usize]) -> Vec<u32> {
        let mut rally: Vec<Loc> = ants
            .iter()
            .zip(mass)
            .filter(|&(_, &m)| m >= self.params.fight_mass)
            .map(|(&a, _)| a)
            .collect();
        rally.extend(&self.h.k.my_hills);
        self.h.distances(t, &rally, RALLY_REACH)
    }

    /// The squares an ant at `a` may stand on after its move: `a` and its neighbours that
    /// are neither water nor food (food blocks a move).
    fn reach(&self, t: Torus, a: Loc) -> Vec<Loc> {
        let k = &self.h.k;
        std::iter::once(a)
            .chain(Dir::ALL.into_iter().map(|d| t.step(a, d)))
            .filter(|&l| l == a || (!k.water[t.index(l)] && !k.food.contains(&l)))
            .collect()
    }

    /// Whether an ant at `a` and one at `e` can stand within attack range of each other
    /// after one move each.
    fn engaged(&self, t: Torus, a: Loc, e: Loc) -> bool {
        let r2 = self.h.k.attackradius2;
        let r = (r2 as f64).sqrt().ceil() as usize + 2;
        if t.distance(a, e) > r * r {
            return false;
        }
        let ra = self.reach(t, a);
        let re = self.reach(t, e);
        ra.iter()
            .any(|&p| re.iter().any(|&q| t.distance(p, q) <= r2))
    }

    /// The battle moves: for each engaged own ant, its destination; and the ants left to
    /// escape ([`PhalanxParams::escape`]: alone in a weak part and dangered). `targets`:
    /// per enemy, whether it is a detached enemy to attack (empty: none).
    fn battles(
        &mut self,
        t: Torus,
        (ants, group): (&[Loc], &[usize]),
        mass: &[usize],
        wanted: &[Vec<(Loc, bool)>],
        (danger, targets): (&[u8], &[bool]),
    ) -> (Vec<Option<Loc>>, Vec<bool>) {
        let enemies = self.h.k.enemies.clone();
        self.parts_seen.clear();
        let mut out: Vec<Option<Loc>> = vec![None; ants.len()];
        let mut lone = vec![false; ants.len()];
        // engagement lists, both ways
        let mut foes_of: Vec<Vec<usize>> = vec![Vec::new(); ants.len()];
        let mut ours_of: Vec<Vec<usize>> = vec![Vec::new(); enemies.len()];
        for (i, &a) in ants.iter().enumerate() {
            for (j, &(e, _)) in enemies.iter().enumerate() {
                if self.engaged(t, a, e) {
                    foes_of[i].push(j);
                    ours_of[j].push(i);
                }
            }
        }
        let engaged: Vec<bool> = foes_of.iter().map(|f| !f.is_empty()).collect();
        let total = self.params.budget;
        // steps to the nearest strong own ant or own hill, made when a part needs it
        let mut rally: Option<Vec<u32>> = None;
        // per move ahead (2, 3, ...), the enemies that can reach attack range of each square
        let mut closing: Option<Vec<Vec<u8>>> = None;
        let mut budget = total;
        let guard = guard_ms(self.params.clock_guard, self.h.k.turntime);
        let deadline = self
            .turn_start
            .filter(|_| guard > 0)
            .map(|s| s + std::time::Duration::from_millis(guard));
        let mut stopped = false;
        let mut done = vec![false; ants.len()];
        for seed in 0..ants.len() {
            if !engaged[seed] || done[seed] {
                continue;
            }
            let (part, foes) = if self.params.fit {
                fitted_part(seed, (&foes_of, &ours_of), &done, self.params)
            } else {
                let foes_max = match self.params.cut_foes {
                    0 => self.params.part,
                    n => n,
                };
                cut_part(
                    seed,
                    (&foes_of, &ours_of),
                    &done,
                    (self.params.part, foes_max),
                )
            };
            for &i in &part {
                done[i] = true;
            }
            // the other own ants that matter: those engaged with these enemies, where they
            // were sent or where they stand
            let mut fixed: Vec<Loc> = Vec::new();
            for &j in &foes {
                for &i in &ours_of[j] {
                    if !part.contains(&i) {
                        let l = out[i].unwrap_or(ants[i]);
                        if !fixed.contains(&l) {
                            fixed.push(l);
                        }
                    }
                }
            }
            // squares our part may not take: those of every other own ant, where it
            // stands or was sent
            let blocked = |l: Loc| {
                ants.iter()
                    .enumerate()
                    .any(|(i, &a)| !part.contains(&i) && (a == l || out[i] == Some(l)))
            };
            let mut ours: Vec<Vec<Loc>> = part
                .iter()
                .map(|&i| {
                    let a = ants[i];
                    let mut opts: Vec<Loc> = self
                        .reach(t, a)
                        .into_iter()
                        .filter(|&l| l == a || !blocked(l))
                        .collect();
                    // the wanted square first, then holding, then the rest
                    let w = wanted[i].first().map_or(a, |&(w, _)| w);
                    opts.sort_by_key(|&l| (l != w, l != a));
                    opts
                })
                .collect();
            let theirs: Vec<(Loc, u8, Vec<Loc>)> = foes
                .iter()
                .map(|&j| {
                    let (e, o) = enemies[j];
                    let reach = self.reach(t, e);
                    let mut opts =
                        enemy_options(t, self.h.k.attackradius2, reach.clone(), e, &ours);
                    if self.params.home_worth > 0 {
                        // stepping onto our hill razes it: never merged away
                        for &h in &self.h.k.my_hills {
                            if reach.contains(&h) && !opts.contains(&h) {
                                opts.push(h);
                            }
                        }
                    }
                    (e, o, opts)
                })
                .collect();
            // the enemies engaged with the part's ants that were left out of its enemies
            let mut still: Vec<(Loc, u8)> = Vec::new();
            if self.params.still_foes {
                for &i in &part {
                    for &j in &foes_of[i] {
                        if !foes.contains(&j) && !still.contains(&enemies[j]) {
                            still.push(enemies[j]);
                        }
                    }
                }
            }
            let bold = part.iter().any(|&i| mass[i] >= BOLD_MASS);
            let p = self.params;
            let grouped = |i: usize| p.group_fight && p.group_size > 0 && group[i] >= p.group_size;
            let strong = part.iter().any(|&i| {
                mass[i] >= self.params.hold_mass
                    || self.near_home(t, ants[i])
                    || grouped(i)
                    || (p.raid_fight && self.near_enemy_home(t, ants[i]))
            }) || (!targets.is_empty() && foes.iter().all(|&j| targets[j]));
            if p.escape && !bold && !strong && part.len() == 1 && fixed.is_empty() {
                let a = ants[part[0]];
                if enemies.iter().any(|&(e, _)| dangered(t, a, e)) {
                    lone[part[0]] = true;
                    continue;
                }
            }
            if p.standoff_steps > 1 && !bold && !strong && part.len() == 1 {
                let counts = closing.get_or_insert_with(|| {
                    let foes: Vec<Loc> = enemies.iter().map(|&(e, _)| e).collect();
                    let k = &self.h.k;
                    (2..=p.standoff_steps)
                        .map(|m| reach_counts(t, &k.water, k.attackradius2, &foes, m))
                        .collect()
                });
                let open = |l: Loc| self.way_out(t, l, 1, counts, p.standoff_foes);
                // stable: the wanted order among squares as open
                ours[0].sort_by_key(|&l| std::cmp::Reverse(open(l)));
            }
            if self.movers.is_some() {
                let left_out = part
                    .iter()
                    .flat_map(|&i| foes_of[i].iter().copied())
                    .filter(|j| !foes.contains(j))
                    .map(|j| enemies[j].0)
                    .collect::<std::collections::BTreeSet<Loc>>();
                self.parts_seen.push(PartTrace {
                    ours: part.iter().map(|&i| ants[i]).collect(),
                    foes: foes.iter().map(|&j| enemies[j].0).collect(),
                    left_out: left_out.into_iter().collect(),
                    fixed: fixed.len(),
                    strength: if bold { 2 } else { u8::from(strong) },
                    cut: false,
                });
            }
            let near = if p.close_in {
                Distance::CloseIn
            } else {
                Distance::Ignore
            };
            let (kill, loss, distance) = if bold {
                (p.bold_kill, p.bold_loss, near)
            } else if strong {
                (p.kill, p.loss, near)
            } else if p.rally && foes.len() > part.len() + fixed.len() {
                (p.kill, 4 * p.kill, Distance::Rally)
            } else if p.keep_away && foes.len() > part.len() + fixed.len() {
                (p.kill, 4 * p.kill, Distance::KeepAway)
            } else if !danger.is_empty() {
                (p.kill, 4 * p.kill, Distance::Threat)
            } else {
                (p.kill, 4 * p.kill, Distance::Ignore)
            };
            let prune = p.prune_replies
                && foes.iter().all(|&j| enemies[j].1 == enemies[foes[0]].1)
                && still.iter().all(|e| e.1 == enemies[foes[0]].1);
            let mut s = Search {
                t,
                r2: self.h.k.attackradius2,
                homes: part.iter().map(|&i| ants[i]).collect(),
                ours,
                theirs,
                fixed,
                still,
                enemy_hills: &self.h.k.enemy_hills,
                my_hills: &self.h.k.my_hills,
                home_worth: p.home_worth,
                prune,
                exact_cut: p.exact_cut,
                rally: if distance == Distance::Rally {
                    rally.get_or_insert_with(|| self.rally_field(t, ants, mass))
                } else {
                    &[]
                },
                danger,
                kill,
                loss,
                distance,
                budget: if stopped {
                    0
                } else {
                    budget.min(total / self.params.part_share.max(1))
                },
                deadline,
                ticks: 0,
                stopped: false,
                best: i64::MIN,
                best_moves: Vec::new(),
                cur: Vec::new(),
                cur_theirs: Vec::new(),
            };
            let before = s.budget;
            s.max(0);
            budget -= before - s.budget;
            stopped |= s.stopped;
            self.parts.0 += 1;
            self.parts.1 += u64::from(s.budget == 0);
            if self.movers.is_some()
                && s.budget == 0
                && let Some(p) = self.parts_seen.last_mut()
            {
                p.cut = true;
            }
            let moves = if s.best_moves.is_empty() {
                part.iter().map(|&i| ants[i]).collect()
            } else {
                s.best_moves
            };
            for (&i, d) in part.iter().zip(moves) {
                out[i] = Some(d);
            }
        }
        let used = total - budget;
        self.most = self.most.max(used);
        self.guard_stops += u64::from(stopped);
        (out, lone)
    }

    /// How many moves ahead an own ant standing on `l` after its move `m` can keep a way
    /// out ([`PhalanxParams::standoff_steps`]): the most moves, up to one past the last of
    /// `counts`, along which it can step (or hold) each move onto a square that fewer than
    /// `foes` enemies can reach attack range of by then (`counts[i]`: after `i + 2` of their
    /// moves).
    fn way_out(&self, t: Torus, l: Loc, m: usize, counts: &[Vec<u8>], foes: u8) -> usize {
        let Some(next) = counts.get(m - 1) else {
            return m;
        };
        let mut best = m;
        for q in self.reach(t, l) {
            if next[t.index(q)] < foes {
                best = best.max(self.way_out(t, q, m + 1, counts, foes));
                if best > counts.len() {
                    break;
                }
            }
        }
        best
    }

    /// How many of the enemies near an own ant at `a` (within xathis's "gamma" distance:
    /// Manhattan 5, not 5 in a straight line) can stand within attack range of `dest` after
    /// their move: 0 is xathis's `isTileSafe`, 2 or more his `isSuicide`.
    fn hitters(&self, t: Torus, a: Loc, dest: Loc) -> usize {
        let k = &self.h.k;
        k.enemies
            .iter()
            .filter(|&&(e, _)| manhattan_within(t, a, e, 5))
            .filter(|&&(e, _)| {
                self.reach(t, e)
                    .iter()
                    .any(|&q| t.distance(q, dest) <= k.attackradius2)
            })
            .count()
    }

    /// xathis's `escapeAnt` for an own ant at `a`: a BFS of [`ESCAPE_STEPS`] steps over
    /// the known land from each first step (a square reached first through several steps
    /// counts for each); a square at `d` steps adds `9 - d`, three times that with an own
    /// ant on it (`ours`), minus three times that with an enemy. The best first step that
    /// is free (`free`: no ant, food or other order on it) and that no enemy can reach
    /// attack range of; if there is none, or its value is 0, the ant holds, unless two
    /// enemies can reach its square: then the first free step that two cannot.
    pub(super) fn escape_step(
        &self,
        t: Torus,
        a: Loc,
        ours: &[Loc],
        free: impl Fn(Loc) -> bool,
    ) -> Loc {
        let k = &self.h.k;
        let land = |l: Loc| !k.water[t.index(l)];
        let firsts: Vec<Loc> = Dir::ALL
            .into_iter()
            .map(|d| t.step(a, d))
            .filter(|&l| land(l))
            .collect();
        // per square reached: its steps and the first steps it is reached through (bits)
        let mut reached: HashMap<Loc, (u32, u8)> = HashMap::new();
        reached.insert(a, (0, 0));
        let mut q = VecDeque::new();
        for (b, &f) in firsts.iter().enumerate() {
            reached.insert(f, (1, 1 << b));
            q.push_back(f);
        }
        let mut order: Vec<Loc> = firsts.clone();
        while let Some(c) = q.pop_front() {
            let (dc, mc) = reached[&c];
            if dc >= ESCAPE_STEPS {
                break;
            }
            for dir in Dir::ALL {
                let n = t.step(c, dir);
                if !land(n) {
                    continue;
                }
                match reached.get_mut(&n) {
                    Some((dn, mn)) => {
                        if *dn == dc + 1 {
                            *mn |= mc;
                        }
                    }
                    None => {
                        reached.insert(n, (dc + 1, mc));
                        order.push(n);
                        q.push_back(n);
                    }
                }
            }
        }
        let mut value = vec![0i64; firsts.len()];
        for l in order {
            let (d, m) = reached[&l];
            let mut add = i64::from(ESCAPE_STEPS + 1 - d);
            if ours.contains(&l) {
                add *= 3;
            } else if k.enemies.iter().any(|&(e, _)| e == l) {
                add *= -3;
            }
            for (b, v) in value.iter_mut().enumerate() {
                if m & (1 << b) != 0 {
                    *v += add;
                }
            }
        }
        let best = firsts
            .iter()
            .zip(&value)
            .filter(|&(&f, _)| free(f) && self.hitters(t, a, f) == 0)
            .fold(None, |best: Option<(Loc, i64)>, (&f, &v)| match best {
                Some((_, bv)) if bv >= v => best,
                _ => Some((f, v)),
            });
        match best {
            Some((f, v)) if v != 0 => f,
            _ if self.hitters(t, a, a) < 2 => a,
            _ => firsts
                .iter()
                .copied()
                .find(|&f| free(f) && self.hitters(t, a, f) < 2)
                .unwrap_or(a),
        }
    }

    /// xathis's escape ([`PhalanxParams::escape`]), after the battles and the attack on
    /// detached enemies: each own ant not yet `moved` that was left `lone` by the battles,
    /// or has nothing else to do (`movable`) and is dangered away from our hills, takes its
    /// [`PhalanxBot::escape_step`]; a lone ant going for food or a hill keeps that step
    /// where it is free and no enemy can reach attack range of it.
    fn escape(
        &self,
        t: Torus,
        (ants, ant_at): (&[Loc], &[u32]),
        wanted: &[Wanted],
        (movable, lone): (&[bool], &[bool]),
        moved: &mut [Option<Loc>],
    ) {
        let k = &self.h.k;
        for (i, &a) in ants.iter().enumerate() {
            if moved[i].is_some() {
                continue;
            }
            let dangered = || k.enemies.iter().any(|&(e, _)| dangered(t, a, e));
            let idle_in_danger = movable[i] && !self.near_home(t, a) && dangered();
            if !(lone[i] || idle_in_danger) {
                continue;
            }
            let free = |l: Loc| {
                !k.food.contains(&l)
                    && !k.enemies.iter().any(|&(e, _)| e == l)
                    && ant_at[t.index(l)] == u32::MAX
                    && !moved.contains(&Some(l))
            };
            // a lone ant going for food or a hill keeps its step where it is safe
            if let Some(&(w, _)) = wanted[i].first()
                && lone[i]
                && !movable[i]
                && (w == a || free(w))
                && self.hitters(t, a, w) == 0
            {
                moved[i] = Some(w);
                continue;
            }
            moved[i] = Some(self.escape_step(t, a, ants, free));
        }
    }

    /// The detached enemies to attack ([`PhalanxParams::detached`]): per enemy, whether no
    /// other enemy stands within 5 rows and 5 columns of it and at least
    /// [`DETACHED_SUPPORT`] own ants within distance² 81; and the targets in xathis's
    /// order (most of ours near first, then the nearest).
    fn detached_targets(&self, t: Torus, ants: &[Loc]) -> (Vec<bool>, Vec<usize>) {
        let k = &self.h.k;
        let boxed = |a: Loc, b: Loc| {
            let dr = a.0.abs_diff(b.0);
            let dc = a.1.abs_diff(b.1);
            dr.min(t.rows - dr) <= 5 && dc.min(t.cols - dc) <= 5
        };
        let mut keyed: Vec<(i64, usize)> = Vec::new();
        let mut targets = vec![false; k.enemies.len()];
        for (j, &(e, _)) in k.enemies.iter().enumerate() {
            let alone = !k
                .enemies
                .iter()
                .enumerate()
                .any(|(j2, &(e2, _))| j2 != j && boxed(e, e2));
            let near: Vec<usize> = ants
                .iter()
                .map(|&a| t.distance(a, e))
                .filter(|&d| d <= 81)
                .collect();
            if alone && near.len() >= DETACHED_SUPPORT {
                targets[j] = true;
                let sum: usize = near.iter().sum();
                keyed.push((sum as i64 - 9 * near.len() as i64, j));
            }
        }
        keyed.sort_unstable();
        (targets, keyed.into_iter().map(|(_, j)| j).collect())
    }

    /// The own ants with nothing else to do (`movable`, not yet `moved`) step towards the
    /// detached enemies in `order`: from each, a BFS of [`DETACHED_REACH`] steps meets up
    /// to [`DETACHED_ANTS`] of them, and each takes its step towards the enemy where that
    /// square is free and no enemy can reach attack range of it (xathis's "attack :: out
    /// of range"; the ants already engaged fight in the battle search).
    fn attack_detached(
        &self,
        t: Torus,
        (ants, ant_at): (&[Loc], &[u32]),
        order: &[usize],
        movable: &[bool],
        moved: &mut [Option<Loc>],
    ) {
        let k = &self.h.k;
        for &j in order {
            let e = k.enemies[j].0;
            let mut parent: HashMap<Loc, (Loc, u32)> = HashMap::new();
            parent.insert(e, (e, 0));
            let mut q = VecDeque::from([e]);
            let mut met = 0;
            while let Some(c) = q.pop_front() {
                let (prev, d) = parent[&c];
                let i = ant_at[t.index(c)];
                if i != u32::MAX && movable[i as usize] && moved[i as usize].is_none() {
                    let i = i as usize;
                    let taken = |l: Loc| {
                        l == e
                            || k.food.contains(&l)
                            || ant_at[t.index(l)] != u32::MAX
                            || moved.contains(&Some(l))
                    };
                    if !taken(prev) && self.hitters(t, ants[i], prev) == 0 {
                        moved[i] = Some(prev);
                    }
                    met += 1;
                    if met == DETACHED_ANTS {
                        break;
                    }
                }
                if d >= DETACHED_REACH {
                    continue;
                }
                for dir in Dir::ALL {
                    let n = t.step(c, dir);
                    if !k.water[t.index(n)] && !parent.contains_key(&n) {
                        parent.insert(n, (c, d + 1));
                        q.push_back(n);
                    }
                }
            }
        }
    }
}

/// The engagement lists, both ways: per own ant the enemies it is engaged with, per enemy
/// our ants.
pub(super) type Engagement<'a> = (&'a [Vec<usize>], &'a [Vec<usize>]);

/// One battle part as the phalanx always cut it: own ants in breadth-first order over the
/// engagement graph from `seed` (not yet `done`), up to `part_max`, with the enemies engaged
/// with them up to `foes_max`; an own ant joins even where some of its enemies no longer
/// fit.
pub(super) fn cut_part(
    seed: usize,
    (foes_of, ours_of): Engagement<'_>,
    done: &[bool],
    (part_max, foes_max): (usize, usize),
) -> (Vec<usize>, Vec<usize>) {
    let mut part: Vec<usize> = vec![seed];
    let mut foes: Vec<usize> = Vec::new();
    let mut head = 0;
    while head < part.len() {
        let i = part[head];
        head += 1;
        for &j in &foes_of[i] {
            if foes.contains(&j) {
                continue;
            }
            if foes.len() < foes_max {
                foes.push(j);
            }
            for &i2 in &ours_of[j] {
                if part.len() < part_max && !done[i2] && !part.contains(&i2) {
                    part.push(i2);
                }
            }
        }
    }
    (part, foes)
}

/// One battle part by xathis's fit ([`PhalanxParams::fit`]): the `seed` with every enemy it
/// is engaged with (up to [`PhalanxParams::part_foes`]), then, breadth-first over the
/// engagement graph, each own ant not yet `done` that is engaged with the part's enemies,
/// while there are fewer than [`PhalanxParams::part`] and only if all of its own enemies
/// fit with the part's within `part_foes`; an ant that does not fit is left for a part of
/// its own.
pub(super) fn fitted_part(
    seed: usize,
    (foes_of, ours_of): Engagement<'_>,
    done: &[bool],
    p: PhalanxParams,
) -> (Vec<usize>, Vec<usize>) {
    let mut part: Vec<usize> = vec![seed];
    let mut foes: Vec<usize> = foes_of[seed].iter().copied().take(p.part_foes).collect();
    let mut head = 0;
    while head < foes.len() {
        let j = foes[head];
        head += 1;
        for &i2 in &ours_of[j] {
            if part.len() >= p.part || done[i2] || part.contains(&i2) {
                continue;
            }
            let new = foes_of[i2].iter().filter(|j2| !foes.contains(j2)).count();
            if foes.len() + new <= p.part_foes {
                part.push(i2);
                for &j2 in &foes_of[i2] {
                    if !foes.contains(&j2) {
                        foes.push(j2);
                    }
                }
            }
        }
    }
    (part, foes)
}

/// Whether `a` and `b` are within Manhattan distance `m`, not `m` in a straight line
/// (xathis's "beta" distance for 4, "gamma" for 5).
fn manhattan_within(t: Torus, a: Loc, b: Loc, m: usize) -> bool {
    let dr = a.0.abs_diff(b.0);
    let dc = a.1.abs_diff(b.1);
    let (dr, dc) = (dr.min(t.rows - dr), dc.min(t.cols - dc));
    dr + dc <= m && !((dr == 0 && dc == m) || (dc == 0 && dr == m))
}

/// xathis's "dangered": an enemy within Manhattan distance 4 of our ant, not 4 in a
/// straight line.
pub(super) fn dangered(t: Torus, a: Loc, e: Loc) -> bool {
    manhattan_within(t, a, e, 4)
}

/// For every square, how many of the `sources` can stand within attack range (`r2`) of it
/// after at most `steps` moves (BFS over land: squares not known as `water`).
pub(super) fn reach_counts(
    t: Torus,
    water: &[bool],
    r2: usize,
    sources: &[Loc],
    steps: u32,
) -> Vec<u8> {
    let n = t.area();
    let mut count = vec![0u8; n];
    let mut attack = t.neighbourhood(r2);
    attack.push((0, 0));
    attack.sort_unstable();
    attack.dedup();
    // per square, the last source that reached it (BFS) and that counted it (range)
    let mut seen = vec![usize::MAX; n];
    let mut counted = vec![usize::MAX; n];
    let mut q = VecDeque::new();
    for (k, &s) in sources.iter().enumerate() {
        seen[t.index(s)] = k;
        q.push_back((s, 0u32));
        while let Some((c, d)) = q.pop_front() {
            for &o in &attack {
                let i = t.index(t.add(c, o));
                if counted[i] != k {
                    counted[i] = k;
                    count[i] = count[i].saturating_add(1);
                }
            }
            if d >= steps {
                continue;
            }
            for dir in Dir::ALL {
                let nb = t.step(c, dir);
                let i = t.index(nb);
                if seen[i] != k && !water[i] {
                    seen[i] = k;
                    q.push_back((nb, d + 1));
                }
            }
        }
    }
    count
}

/// The threat field: for every square, how many more `foes` than `ours` can stand within
/// attack range of it after `steps` moves, where two or more enemies can and they are at
/// least `margin` more (else 0).
pub(super) fn threat_field(
    t: Torus,
    water: &[bool],
    r2: usize,
    (foes, ours): (&[Loc], &[Loc]),
    steps: u32,
    margin: u8,
) -> Vec<u8> {
    let theirs = reach_counts(t, water, r2, foes, steps);
    let mine = reach_counts(t, water, r2, ours, steps);
    theirs
        .iter()
        .zip(&mine)
        .map(|(&e, &o)| {
            if e >= 2 && e >= o.saturating_add(margin.max(1)) {
                e - o
            } else {
                0
            }
        })
        .collect()
}

/// An enemy's moves worth searching against our part (`reach`: its squares after a move):
/// the squares within attack range of some square our ants may take (`ours`), nearest to
/// our ants first, and one square out of range (holding if it is), which stands for every
/// move out of range: they are all alike for the fight, since the score measures
/// distances from where the enemy stands now.
pub(super) fn enemy_options(
    t: Torus,
    r2: usize,
    reach: Vec<Loc>,
    e: Loc,
    ours: &[Vec<Loc>],
) -> Vec<Loc> {
    let near = |q: Loc| {
        ours.iter()
            .flatten()
            .map(|&p| t.distance(p, q))
            .min()
            .unwrap_or(usize::MAX)
    };
    let mut opts: Vec<(usize, Loc)> = reach.into_iter().map(|q| (near(q), q)).collect();
    opts.sort_unstable();
    let idle = opts
        .iter()
        .find(|&&(d, q)| d > r2 && q == e)
        .or_else(|| opts.iter().find(|&&(d, _)| d > r2))
        .map(|&(_, q)| q);
    opts.into_iter()
        .filter(|&(d, q)| d <= r2 || Some(q) == idle)
        .map(|(_, q)| q)
        .collect()
}

/// What the distance² from each of our part's ants to its nearest enemy adds to a score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Distance {
    /// Nearer is better: among equally safe moves the group closes in and holds the line
    /// at the edge of the enemy's reach.
    CloseIn,
    /// Farther is better: a weak part backs off as far as it can instead of lingering at
    /// the edge of reach, where a second enemy coming up catches it.
    KeepAway,
    /// Fewer steps to support are better (the field in [`Search::rally`]): a weak part runs
    /// towards our groups.
    Rally,
    /// Each enemy in excess on our ants' squares in the threat field ([`Search::danger`])
    /// costs [`THREAT_COST`]: a weak part does not stand where more can come than ours.
    Threat,
    /// Only kills and losses count.
    Ignore,
}

/// One part's max-min: our moves (depth-first, the wanted ones first) against every enemy
/// reply, with the replies cut off once one is no better than the best found.
pub(super) struct Search<'a> {
    pub(super) t: Torus,
    pub(super) r2: usize,
    /// Where each of our part's ants stands.
    pub(super) homes: Vec<Loc>,
    /// Each of our part's ants' squares to choose from.
    pub(super) ours: Vec<Vec<Loc>>,
    /// Each enemy's square, owner and squares to choose from.
    pub(super) theirs: Vec<(Loc, u8, Vec<Loc>)>,
    /// Our other ants that fight beside the part, where they will stand.
    pub(super) fixed: Vec<Loc>,
    /// Enemies left out of the part, standing on their squares with their owners
    /// ([`PhalanxParams::still_foes`]): their attack counts, their deaths do not.
    pub(super) still: Vec<(Loc, u8)>,
    pub(super) enemy_hills: &'a [Loc],
    /// Our hills, and what an enemy left alive on one costs (0: nothing).
    pub(super) my_hills: &'a [Loc],
    pub(super) home_worth: i64,
    /// Whether an enemy's squares out of range of every square our ants hold are tried
    /// as one ([`PhalanxParams::prune_replies`]; only where the enemies share an owner).
    pub(super) prune: bool,
    /// Whether an assignment whose replies were cut short by the budget is kept only when
    /// none was fully scored ([`PhalanxParams::exact_cut`]).
    pub(super) exact_cut: bool,
    /// Per square, BFS steps to the nearest strong own ant or own hill (read only when
    /// the distance term is [`Distance::Rally`]).
    pub(super) rally: &'a [u32],
    /// Per square, the enemies in excess in the threat field (read only when the distance
    /// term is [`Distance::Threat`]).
    pub(super) danger: &'a [u8],
    pub(super) kill: i64,
    pub(super) loss: i64,
    pub(super) distance: Distance,
    /// Pair checks left.
    pub(super) budget: u64,
    /// The clock guard's deadline ([`PhalanxParams::clock_guard`]): past it the budget is
    /// spent.
    pub(super) deadline: Option<std::time::Instant>,
    /// Pair checks since the clock was last read.
    pub(super) ticks: u64,
    /// Whether the clock guard stopped the search.
    pub(super) stopped: bool,
    pub(super) best: i64,
    pub(super) best_moves: Vec<Loc>,
    pub(super) cur: Vec<Loc>,
    pub(super) cur_theirs: Vec<Loc>,
}

impl Search<'_> {
    /// Tries our ant `i`'s squares and those of the ants after it; at the end, the
    /// enemies' worst reply, kept as the best if it beats it.
    pub(super) fn max(&mut self, i: usize) {
        if i == self.ours.len() {
            let v = self.min(0);
            // cut short, `v` only bounds the assignment's worth from above
            let partial = self.budget == 0;
            if v > self.best && !(self.exact_cut && partial && !self.best_moves.is_empty()) {
                self.best = v;
                self.best_moves = self.cur.clone();
            }
            return;
        }
        for k in 0..self.ours[i].len() {
            if self.budget == 0 {
                return;
            }
            let l = self.ours[i][k];
            if self.cur.contains(&l) || self.swaps(i, l) {
                continue;
            }
            self.cur.push(l);
            self.max(i + 1);
            self.cur.pop();
        }
    }

    /// Whether our ant `i` stepping to `l` swaps squares with an earlier one.
    pub(super) fn swaps(&self, i: usize, l: Loc) -> bool {
        (0..i).any(|j| self.homes[j] == l && self.cur[j] == self.homes[i])
    }

    /// The worst for us of enemy `j`'s squares and those of the enemies after it, stopping
    /// once it is no better than the best found.
    fn min(&mut self, j: usize) -> i64 {
        if j == self.theirs.len() {
            return self.score();
        }
        let mut worst = i64::MAX;
        let mut idle = false;
        for k in 0..self.theirs[j].2.len() {
            let q = self.theirs[j].2[k];
            if self.cur.contains(&q) || self.cur_theirs.contains(&q) {
                continue;
            }
            if self.prune && !self.in_play(q) {
                // out of range of all our ants: one such square stands for them all
                if idle {
                    continue;
                }
                idle = true;
            }
            self.cur_theirs.push(q);
            let v = self.min(j + 1);
            self.cur_theirs.pop();
            worst = worst.min(v);
            if worst <= self.best || self.budget == 0 {
                break;
            }
        }
        if worst == i64::MAX {
            // every square of this enemy is taken: it holds in the crowd (rare)
            let q = self.theirs[j].0;
            self.cur_theirs.push(q);
            worst = self.min(j + 1);
            self.cur_theirs.pop();
        }
        worst
    }

    /// Whether an enemy on `q` can matter to the score: within attack range of one of
    /// our ants as placed (the part's and the fixed ones), or on our hill when that
    /// counts.
    fn in_play(&self, q: Loc) -> bool {
        self.cur
            .iter()
            .chain(&self.fixed)
            .any(|&p| self.t.distance(p, q) <= self.r2)
            || (self.home_worth > 0 && self.my_hills.contains(&q))
    }

    /// The position's worth: kills (a razed hill counts two) and losses by the focus rule,
    /// less [`Search::home_worth`] for each enemy left alive on our hill,
    /// less each of our ants' distance² to its nearest enemy when closing in (plus it when
    /// keeping away).
    pub(super) fn score(&mut self) -> i64 {
        let m = self.cur.len() + self.fixed.len();
        let mut all: Vec<(Loc, u8)> = self
            .cur
            .iter()
            .chain(&self.fixed)
            .map(|&l| (l, 0))
            .collect();
        all.extend(
            self.cur_theirs
                .iter()
                .zip(&self.theirs)
                .map(|(&q, e)| (q, e.1)),
        );
        // after the part's enemies, so `dead[m..m + cur_theirs.len()]` are still theirs
        all.extend(self.still.iter().copied());
        let cost = (all.len() * all.len()) as u64;
        self.budget = self.budget.saturating_sub(cost);
        if let Some(d) = self.deadline {
            // the clock is read about once a millisecond
            self.ticks += cost;
            if self.ticks >= 1 << 18 {
                self.ticks = 0;
                if std::time::Instant::now() >= d {
                    self.budget = 0;
                    self.stopped = true;
                }
            }
        }
        let dead = battle::focus_deaths(self.t, self.r2, &all);
        let losses = dead[..m].iter().filter(|&&d| d).count() as i64;
        let kills = dead[m..m + self.cur_theirs.len()]
            .iter()
            .filter(|&&d| d)
            .count() as i64;
        let razed = (0..self.cur.len())
            .filter(|&i| !dead[i] && self.enemy_hills.contains(&self.cur[i]))
            .count() as i64;
        let mut v = self.kill * (kills + 2 * razed) - self.loss * losses;
        if self.home_worth > 0 {
            let on_home = (0..self.cur_theirs.len())
                .filter(|&j| !dead[m + j] && self.my_hills.contains(&self.cur_theirs[j]))
                .count() as i64;
            v -= self.home_worth * on_home;
        }
        if self.distance == Distance::Rally {
            for &p in &self.cur {
                v -= 4 * i64::from(self.rally[self.t.index(p)].min(RALLY_REACH));
            }
        } else if self.distance == Distance::Threat {
            for &p in &self.cur {
                v -= THREAT_COST * i64::from(self.danger[self.t.index(p)]);
            }
        } else if self.distance != Distance::Ignore {
            for &p in &self.cur {
                let d = self
                    .theirs
                    .iter()
                    .map(|e| self.t.distance(p, e.0))
                    .min()
                    .unwrap_or(0)
                    .min(100) as i64;
                v += if self.distance == Distance::CloseIn {
                    -d
                } else {
                    d
                };
            }
        }
        v
    }
}

/// The clock guard's time in milliseconds ([`PhalanxParams::clock_guard`]): the guard as
/// set, but never more than a third of the turn's time limit when the setup told it
/// (`turntime`; the 2011 contest's games had 500 ms, where a guard of 500 would be no
/// guard). 0 keeps the guard off.
pub(super) fn guard_ms(clock_guard: u64, turntime: u64) -> u64 {
    match turntime {
        0 => clock_guard,
        t => clock_guard.min(t / 3),
    }
}

impl AntsBot for PhalanxBot {
    fn answer(&mut self, message: &str) -> Vec<String> {
        if self.params.clock_guard > 0 {
            self.turn_start = Some(std::time::Instant::now());
        }
        if !self.h.k.read(message) {
            return Vec::new();
        }
        let Some(t) = self.h.k.torus else {
            return Vec::new();
        };
        let n = t.area();
        let ants = self.h.k.my_ants.clone();
        let mut ant_at = vec![u32::MAX; n];
        for (k, &a) in ants.iter().enumerate() {
            ant_at[t.index(a)] = k as u32;
        }
        let mass = self.mass(t, &ants);
        let group = if self.params.group_size > 0 {
            PhalanxBot::groups(t, &ants, self.params.group_link)
        } else {
            Vec::new()
        };
        let mut extra = self
            .params
            .approach
            .then(|| self.approach(t, &ants, &mass, &group));
        let mut raiders = self.params.raiders.then(|| self.raiders(t, &ants, &ant_at));
        if self.params.raid_muster > 0 {
            self.muster(
                t,
                &ants,
                &mass,
                raiders.as_deref_mut(),
                extra.as_deref_mut(),
            );
        }
        let hooks = PlanHooks {
            extra: extra.as_deref(),
            raiders: raiders.as_deref(),
        };
        let (mut wanted, idle) = self.h.plan(t, &ants, &ant_at, hooks);
        // the ants with nothing before exploring but the approach (xathis moves these after
        // his fights: they may attack detached enemies or escape)
        let movable: Vec<bool> = (0..ants.len())
            .map(|k| {
                idle[k]
                    || extra
                        .as_ref()
                        .is_some_and(|x| x[k].as_ref() == Some(&wanted[k]))
            })
            .collect();
        self.economy(t, &ants, &mut wanted, &idle);
        self.regroup(t, &ants, &mass, &mut wanted, &idle);
        let sent = self.support(t, &ants, &mass, &mut wanted, &movable);
        // food blocks a move (the engine ignores the order): an ant fetching it holds
        // beside it, any other steps round it
        for w in &mut wanted {
            w.retain(|(l, _)| !self.h.k.food.contains(l));
        }
        let threat = self.h.threats(t);
        if !self.params.battles {
            let safe = self.h.safety(t, &ants, &threat);
            let order: Vec<usize> = (0..ants.len()).collect();
            return self
                .h
                .resolve(t, &ants, &ant_at, &wanted, &order, false, &threat, safe);
        }
        let danger = self.threat(t, &ants, &mass, &mut wanted, &idle);
        let (targets, target_order) = if self.params.detached {
            self.detached_targets(t, &ants)
        } else {
            (Vec::new(), Vec::new())
        };
        let (mut fights, lone) =
            self.battles(t, (&ants, &group), &mass, &wanted, (&danger, &targets));
        let searched: Vec<bool> = fights.iter().map(Option::is_some).collect();
        self.attack_detached(t, (&ants, &ant_at), &target_order, &movable, &mut fights);
        let attacking: Vec<bool> = fights.iter().map(Option::is_some).collect();
        if self.params.escape {
            self.escape(t, (&ants, &ant_at), &wanted, (&movable, &lone), &mut fights);
        }
        let guards = if self.params.guard_reach > 0 {
            let food = self.h.food_steps(t, &ant_at);
            let free: Vec<bool> = (0..ants.len())
                .map(|k| {
                    fights[k].is_none()
                        && food[k].is_none()
                        && !raiders.as_ref().is_some_and(|r| r[k])
                })
                .collect();
            let covering: Vec<bool> = fights.iter().map(Option::is_some).collect();
            self.guard(t, (&ants, &ant_at), &free, &covering, &mut wanted)
        } else {
            vec![false; ants.len()]
        };
        if self.movers.is_some() {
            let food = self.h.food_steps(t, &ant_at);
            let movers = (0..ants.len())
                .map(|k| {
                    let m = if searched[k] {
                        Mover::Battle
                    } else if attacking[k] {
                        Mover::Detached
                    } else if fights[k].is_some() {
                        Mover::Escape
                    } else if guards[k] {
                        Mover::Guard
                    } else if sent[k] {
                        Mover::Support
                    } else if food[k].is_some() {
                        Mover::Food
                    } else if idle[k] {
                        Mover::Explore
                    } else if movable[k] {
                        Mover::Approach
                    } else {
                        Mover::Hill
                    };
                    (ants[k], m)
                })
                .collect();
            self.movers = Some(movers);
        }
        // the battle ants first: their moves were chosen together
        let mut order: Vec<usize> = (0..ants.len()).filter(|&k| fights[k].is_some()).collect();
        order.extend((0..ants.len()).filter(|&k| fights[k].is_none()));
        let fights_at: Vec<bool> = fights.iter().map(Option::is_some).collect();
        for (k, f) in fights.into_iter().enumerate() {
            if let Some(d) = f {
                wanted[k] = vec![(d, false)];
            }
        }
        let hunter_safe = self.h.safety(t, &ants, &threat);
        let safe = |dest: Loc, me: Loc| {
            let k = ant_at[t.index(me)] as usize;
            fights_at[k] || hunter_safe(dest, me)
        };
        self.h
            .resolve(t, &ants, &ant_at, &wanted, &order, true, &threat, safe)
    }
}
