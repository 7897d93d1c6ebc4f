//! A log-log SVG chart of a benchmark: time per element against array size (the fastest run,
//! the figure least disturbed by other work on the machine), one line per algorithm, for one input kind (the kind of graph the seed shows). Written by hand: a chart
//! this simple does not need a plotting crate.

use std::fmt::Write;

use crate::Algorithm;
use crate::bench::BenchReport;
use crate::inputs::InputKind;

const WIDTH: f64 = 860.0;
const HEIGHT: f64 = 540.0;
const LEFT: f64 = 80.0;
const TOP: f64 = 50.0;
const PLOT_W: f64 = 560.0;
const PLOT_H: f64 = 420.0;

fn colour(algorithm: Algorithm) -> &'static str {
    match algorithm {
        Algorithm::StackV1 => "#d62728",
        Algorithm::StackV2 => "#ff7f0e",
        Algorithm::StackV3 => "#8c564b",
        Algorithm::StackHash10 => "#e377c2",
        Algorithm::StackHash100 => "#f7b6d2",
        Algorithm::StackMin2 => "#ffbb78",
        Algorithm::StackLinear => "#98df8a",
        Algorithm::Patience => "#2ca02c",
        Algorithm::Insertion => "#9467bd",
        Algorithm::Merge => "#1f77b4",
        Algorithm::Quick => "#17becf",
        Algorithm::Heap => "#bcbd22",
        Algorithm::StdSort => "#7f7f7f",
        Algorithm::StdSortUnstable => "#000000",
    }
}

fn is_subject(algorithm: Algorithm) -> bool {
    matches!(
        algorithm,
        Algorithm::StackV1
            | Algorithm::StackV2
            | Algorithm::StackV3
            | Algorithm::StackHash10
            | Algorithm::StackHash100
            | Algorithm::StackMin2
            | Algorithm::StackLinear
            | Algorithm::Patience
    )
}

/// `10`, `1k`, `10M`: a power of ten as an axis label for sizes.
fn size_label(decade: i32) -> String {
    let (unit, shift) = match decade {
        d if d >= 9 => ("G", 9),
        d if d >= 6 => ("M", 6),
        d if d >= 3 => ("k", 3),
        _ => ("", 0),
    };
    format!("{}{unit}", 10u64.pow((decade - shift).max(0) as u32))
}

/// A size as a short label: `1M` for a power of ten, the number otherwise.
fn compact(n: usize) -> String {
    match n.checked_ilog10() {
        Some(d) if 10usize.pow(d) == n => size_label(d as i32),
        _ => n.to_string(),
    }
}

/// `1 ns`, `100 ns`, `10 µs`: a power of ten of nanoseconds as an axis label.
fn ns_label(decade: i32) -> String {
    let (unit, shift) = match decade {
        d if d >= 9 => ("s", 9),
        d if d >= 6 => ("ms", 6),
        d if d >= 3 => ("µs", 3),
        _ => ("ns", 0),
    };
    if decade - shift < 0 {
        format!("{} {unit}", 10f64.powi(decade - shift))
    } else {
        format!("{} {unit}", 10u64.pow((decade - shift) as u32))
    }
}

/// The chart of `input`'s measurements in `report`, as a standalone SVG document; `None` when
/// the report holds no measurement of `input`.
pub fn svg(report: &BenchReport, input: InputKind) -> Option<String> {
    let points: Vec<_> = report
        .measurements
        .iter()
        .filter(|m| m.input == input && m.min_ns_per_elem > 0.0)
        .collect();
    if points.is_empty() {
        return None;
    }
    let lx = |n: usize| (n.max(1) as f64).log10();
    let ly = |ns: f64| ns.log10();
    let x0 = points
        .iter()
        .map(|m| lx(m.size))
        .fold(f64::MAX, f64::min)
        .floor() as i32;
    let mut x1 = points
        .iter()
        .map(|m| lx(m.size))
        .fold(f64::MIN, f64::max)
        .ceil() as i32;
    let y0 = points
        .iter()
        .map(|m| ly(m.min_ns_per_elem))
        .fold(f64::MAX, f64::min)
        .floor() as i32;
    let mut y1 = points
        .iter()
        .map(|m| ly(m.min_ns_per_elem))
        .fold(f64::MIN, f64::max)
        .ceil() as i32;
    if x1 == x0 {
        x1 += 1;
    }
    if y1 == y0 {
        y1 += 1;
    }
    let px = |x: f64| LEFT + (x - f64::from(x0)) / f64::from(x1 - x0) * PLOT_W;
    let py = |y: f64| TOP + PLOT_H - (y - f64::from(y0)) / f64::from(y1 - y0) * PLOT_H;

    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{}" y="24" font-size="15" text-anchor="middle">Sorting {input} arrays of i64: {} per element, fastest of {} runs (seed {})</text>"#,
        WIDTH / 2.0,
        match report.clock {
            crate::bench::Clock::ThreadCpu => "CPU time",
            crate::bench::Clock::Wall => "time",
        },
        report.runs,
        report.seed
    );
    for d in x0..=x1 {
        let x = px(f64::from(d));
        let _ = writeln!(
            s,
            r##"<line x1="{x:.1}" y1="{TOP}" x2="{x:.1}" y2="{:.1}" stroke="#ddd"/><text x="{x:.1}" y="{:.1}" text-anchor="middle">{}</text>"##,
            TOP + PLOT_H,
            TOP + PLOT_H + 18.0,
            size_label(d)
        );
    }
    for d in y0..=y1 {
        let y = py(f64::from(d));
        let _ = writeln!(
            s,
            r##"<line x1="{LEFT}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"##,
            LEFT + PLOT_W,
            LEFT - 6.0,
            y + 4.0,
            ns_label(d)
        );
    }
    let _ = writeln!(
        s,
        r#"<rect x="{LEFT}" y="{TOP}" width="{PLOT_W}" height="{PLOT_H}" fill="none" stroke="black"/>"#
    );
    let _ = writeln!(
        s,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">array size n (log scale)</text>"#,
        LEFT + PLOT_W / 2.0,
        TOP + PLOT_H + 40.0
    );
    let _ = writeln!(
        s,
        r#"<text transform="translate(22 {:.1}) rotate(-90)" text-anchor="middle">time per element (log scale)</text>"#,
        TOP + PLOT_H / 2.0
    );

    let mut legend_y = TOP + 10.0;
    for &algorithm in &report.algorithms {
        let mut line: Vec<_> = points.iter().filter(|m| m.algorithm == algorithm).collect();
        if line.is_empty() {
            continue;
        }
        line.sort_by_key(|m| m.size);
        let colour = colour(algorithm);
        let (width, dash) = if is_subject(algorithm) {
            (2.5, "")
        } else {
            (1.5, r#" stroke-dasharray="6 3""#)
        };
        let path: Vec<String> = line
            .iter()
            .map(|m| format!("{:.1},{:.1}", px(lx(m.size)), py(ly(m.min_ns_per_elem))))
            .collect();
        let _ = writeln!(
            s,
            r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="{width}"{dash}/>"#,
            path.join(" ")
        );
        for p in &path {
            let (cx, cy) = p.split_once(',').unwrap_or(("0", "0"));
            let _ = writeln!(s, r#"<circle cx="{cx}" cy="{cy}" r="3" fill="{colour}"/>"#);
        }
        let mut label = algorithm.name().to_owned();
        if let Some(cap) = report.cap(algorithm, input) {
            let _ = write!(label, " (capped, n ≥ {})", compact(cap.from_size));
        }
        let lx0 = LEFT + PLOT_W + 16.0;
        let _ = writeln!(
            s,
            r#"<line x1="{lx0:.1}" y1="{legend_y:.1}" x2="{:.1}" y2="{legend_y:.1}" stroke="{colour}" stroke-width="{width}"{dash}/><text x="{:.1}" y="{:.1}">{label}</text>"#,
            lx0 + 26.0,
            lx0 + 32.0,
            legend_y + 4.0
        );
        legend_y += 20.0;
    }
    s.push_str("</svg>\n");
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axis_labels() {
        assert_eq!(size_label(1), "10");
        assert_eq!(size_label(4), "10k");
        assert_eq!(size_label(7), "10M");
        assert_eq!(ns_label(-1), "0.1 ns");
        assert_eq!(ns_label(2), "100 ns");
        assert_eq!(ns_label(4), "10 µs");
        assert_eq!(compact(1_000_000), "1M");
        assert_eq!(compact(2500), "2500");
    }
}
