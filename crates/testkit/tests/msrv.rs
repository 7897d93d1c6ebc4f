//! The workspace's `rust-version` is a promise: no locked dependency may ask for a newer
//! Rust. (Clippy's `incompatible_msrv` checks ply's own code against it; this checks what
//! Cargo.lock brings in, which clippy does not: the PostgreSQL pool once pulled in a crate
//! that needs Rust 1.95.)

use std::process::Command;

fn version(text: &str) -> (u64, u64, u64) {
    let mut parts = text.split('.').map(|p| p.parse::<u64>().unwrap_or(0));
    (
        parts.next().unwrap_or(0),
        parts.next().unwrap_or(0),
        parts.next().unwrap_or(0),
    )
}

#[test]
fn no_locked_dependency_needs_a_newer_rust_than_rust_version() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--locked", "--offline"])
        .current_dir(ply_testkit::workspace_root())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "cargo metadata: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let packages = meta["packages"].as_array().unwrap();
    let ours = packages
        .iter()
        .find(|p| p["name"] == "ply-core")
        .and_then(|p| p["rust_version"].as_str())
        .expect("ply-core states a rust-version");
    let newer: Vec<String> = packages
        .iter()
        .filter_map(|p| {
            let needs = p["rust_version"].as_str()?;
            (version(needs) > version(ours)).then(|| {
                let text = |key: &str| p[key].as_str().unwrap_or("?").to_string();
                format!("{} {} needs {needs}", text("name"), text("version"))
            })
        })
        .collect();
    assert!(
        newer.is_empty(),
        "rust-version is {ours}, but: {newer:?} (pin an older version with cargo update --precise, or raise rust-version)"
    );
    assert!(packages.len() > 50, "only {} packages", packages.len());
}
