//! The `--key value` options of the fitting examples (`othello_fit`, `reversi_fit`): parsed
//! once into pairs, read by name with a default. Included by `#[path]`, not an example.

/// The options, in the order given; a key given twice takes its last value.
pub struct Options(Vec<(String, String)>);

impl Options {
    pub fn parse(args: &[String]) -> Result<Options, String> {
        let mut out = Vec::new();
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let key = a
                .strip_prefix("--")
                .ok_or_else(|| format!("expected --option, got {a:?}"))?;
            let value = it.next().ok_or_else(|| format!("--{key} needs a value"))?;
            out.push((key.to_string(), value.clone()));
        }
        Ok(Options(out))
    }

    pub fn get(&self, key: &str) -> Option<&str> {
        self.0
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    pub fn num<T: std::str::FromStr>(&self, key: &str, default: T) -> Result<T, String> {
        match self.get(key) {
            None => Ok(default),
            Some(v) => v.parse().map_err(|_| format!("--{key}: bad number {v:?}")),
        }
    }
}
