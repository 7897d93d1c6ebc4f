//! The replay folders the Taunt replay readers (`taunt_standoff`, `taunt_swindle`) take:
//! the leading `--key value` options, the folders' `.json` files in order, and their flat
//! string fields. Included by `#[path]`, not an example.

use std::{fs, path::Path, path::PathBuf};

/// Splits `args` into the leading `--key value` pairs and the folders after them.
pub fn split(args: &[String]) -> (&[String], &[String]) {
    let mut k = 0;
    while args.get(k).is_some_and(|a| a.starts_with("--")) {
        k += 2;
    }
    args.split_at(k.min(args.len()))
}

/// The `.json` files of the folders `dirs`, sorted; an error names the folder or entry.
pub fn files(dirs: &[String]) -> Result<Vec<PathBuf>, String> {
    if let Some(bad) = dirs.iter().find(|a| !Path::new(a).is_dir()) {
        return Err(format!("{bad:?} is not a folder of replays"));
    }
    let mut files = Vec::new();
    for dir in dirs {
        let entries = fs::read_dir(dir).map_err(|e| format!("{dir:?}: {e}"))?;
        for e in entries {
            let p = e
                .map_err(|_| format!("{dir:?}: an entry could not be read"))?
                .path();
            if p.extension().is_some_and(|x| x == "json") {
                files.push(p);
            }
        }
    }
    files.sort();
    Ok(files)
}

/// The text of a replay file, or an error naming it.
pub fn read(path: &Path) -> Result<String, String> {
    fs::read_to_string(path).map_err(|_| format!("{}: not readable as text", path.display()))
}

/// The values of `"key": "..."` in the order they appear (the replay's JSON is flat enough).
pub fn strings(text: &str, key: &str) -> Vec<String> {
    let pat = format!("\"{key}\": \"");
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find(&pat) {
        rest = &rest[i + pat.len()..];
        let end = rest.find('"').unwrap_or(rest.len());
        out.push(rest[..end].to_string());
        rest = &rest[end..];
    }
    out
}
