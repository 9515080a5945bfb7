//! `rove test --compare OLD NEW`: which tasks got better or worse between
//! two results.json files. A change whose 95 % intervals overlap is marked
//! as possibly chance: with five attempts, 3/5 against 4/5 says little.

use std::collections::HashMap;

use serde::Deserialize;

use crate::EvalError;

/// The part of a results.json a comparison reads.
#[derive(Debug, Deserialize)]
struct Results {
    schema: u32,
    tasks: Vec<TaskLine>,
}

#[derive(Debug, Deserialize)]
struct TaskLine {
    name: String,
    passed: u64,
    attempts: u64,
    pass_rate: Option<f64>,
    interval: [f64; 2],
}

/// How one task changed.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// The task.
    pub name: String,
    /// `passed/attempts` before and after (`None`: not in that file).
    pub before: Option<(u64, u64)>,
    /// See `before`.
    pub after: Option<(u64, u64)>,
    /// New pass rate minus old (0 when either is missing).
    pub delta: f64,
    /// Whether the two 95 % intervals do not overlap.
    pub clear: bool,
}

/// Two runs compared, task by task.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Comparison {
    /// Higher pass rate now.
    pub better: Vec<Change>,
    /// Lower pass rate now.
    pub worse: Vec<Change>,
    /// The same pass rate.
    pub same: Vec<Change>,
    /// Only in the new file.
    pub added: Vec<Change>,
    /// Only in the old file.
    pub removed: Vec<Change>,
}

fn read(path: &std::path::Path) -> Result<Results, EvalError> {
    let text = rove_base::user_file::read_text(path, rove_base::limits::RESULTS_FILE_BYTES)
        .map_err(|e| EvalError::Read {
            path: path.to_owned(),
            message: e.into_io().to_string(),
        })?;
    let results: Results = serde_json::from_str(&text).map_err(|e| EvalError::Parse {
        path: path.to_owned(),
        line: Some(e.line()),
        column: Some(e.column()),
        message: format!("not a results.json of rove test: {e}"),
    })?;
    if results.schema != crate::results::SCHEMA {
        return Err(EvalError::Parse {
            path: path.to_owned(),
            line: None,
            column: None,
            message: format!(
                "results schema {} (this rove reads schema {})",
                results.schema,
                crate::results::SCHEMA
            ),
        });
    }
    Ok(results)
}

/// Compares two results.json files, in time linear in their tasks.
pub fn compare(old: &std::path::Path, new: &std::path::Path) -> Result<Comparison, EvalError> {
    let (old, new) = (read(old)?, read(new)?);
    let by_name = |tasks: &[TaskLine]| -> HashMap<String, usize> {
        // The first of a name wins, as a search from the start would find.
        let mut map = HashMap::with_capacity(tasks.len());
        for (i, t) in tasks.iter().enumerate() {
            map.entry(t.name.clone()).or_insert(i);
        }
        map
    };
    let (old_names, new_names) = (by_name(&old.tasks), by_name(&new.tasks));
    let mut comparison = Comparison::default();
    for after in &new.tasks {
        let before = old_names.get(&after.name).map(|&i| &old.tasks[i]);
        let Some(before) = before else {
            comparison.added.push(Change {
                name: after.name.clone(),
                before: None,
                after: Some((after.passed, after.attempts)),
                delta: 0.0,
                clear: false,
            });
            continue;
        };
        let delta = after.pass_rate.unwrap_or(0.0) - before.pass_rate.unwrap_or(0.0);
        let change = Change {
            name: after.name.clone(),
            before: Some((before.passed, before.attempts)),
            after: Some((after.passed, after.attempts)),
            delta,
            clear: after.interval[0] > before.interval[1] || after.interval[1] < before.interval[0],
        };
        if delta > 1e-9 {
            comparison.better.push(change);
        } else if delta < -1e-9 {
            comparison.worse.push(change);
        } else {
            comparison.same.push(change);
        }
    }
    for before in &old.tasks {
        if !new_names.contains_key(&before.name) {
            comparison.removed.push(Change {
                name: before.name.clone(),
                before: Some((before.passed, before.attempts)),
                after: None,
                delta: 0.0,
                clear: false,
            });
        }
    }
    // The largest changes first.
    comparison
        .better
        .sort_by(|a, b| b.delta.total_cmp(&a.delta));
    comparison.worse.sort_by(|a, b| a.delta.total_cmp(&b.delta));
    Ok(comparison)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, tasks: serde_json::Value) -> std::path::PathBuf {
        let path =
            std::env::temp_dir().join(format!("rove-compare-{name}-{}.json", std::process::id()));
        std::fs::write(
            &path,
            serde_json::json!({"schema": 1, "tasks": tasks}).to_string(),
        )
        .expect("written");
        path
    }

    fn task(name: &str, passed: u64, attempts: u64) -> serde_json::Value {
        let (low, high) = crate::wilson(passed, attempts);
        serde_json::json!({"name": name, "passed": passed, "attempts": attempts,
            "pass_rate": passed as f64 / attempts as f64, "interval": [low, high], "extra": "ignored"})
    }

    #[test]
    fn tasks_are_sorted_into_better_worse_same_added_removed() {
        let old = file(
            "old",
            serde_json::json!([
                task("a", 1, 20),
                task("b", 5, 5),
                task("c", 3, 5),
                task("gone", 1, 1)
            ]),
        );
        let new = file(
            "new",
            serde_json::json!([
                task("a", 19, 20),
                task("b", 4, 5),
                task("c", 3, 5),
                task("fresh", 1, 1)
            ]),
        );
        let c = compare(&old, &new).expect("compared");
        assert_eq!(c.better.len(), 1);
        assert_eq!(c.better[0].name, "a");
        assert!(c.better[0].clear, "1/20 → 19/20 is no chance");
        assert_eq!(c.worse[0].name, "b");
        assert!(!c.worse[0].clear, "5/5 → 4/5 may be chance");
        assert_eq!(c.same[0].name, "c");
        assert_eq!(c.added[0].name, "fresh");
        assert_eq!(c.removed[0].name, "gone");
        for path in [old, new] {
            std::fs::remove_file(path).expect("cleanup");
        }
    }

    #[test]
    fn many_tasks_are_compared_in_linear_time() {
        // Quadratic matching took 98 s for 60,000 tasks (release build).
        let many = |passed: u64| -> serde_json::Value {
            (0..60_000)
                .map(|i| task(&format!("task {i}"), passed, 1))
                .collect()
        };
        let (old, new) = (file("many-old", many(0)), file("many-new", many(1)));
        let started = std::time::Instant::now();
        let c = compare(&old, &new).expect("compared");
        let took = started.elapsed();
        assert_eq!(c.better.len(), 60_000);
        assert!(c.added.is_empty() && c.removed.is_empty());
        assert!(took < std::time::Duration::from_secs(10), "{took:?}");
        for path in [old, new] {
            std::fs::remove_file(path).expect("cleanup");
        }
    }

    #[test]
    fn a_file_that_is_not_results_json_is_refused_with_its_name() {
        let bad =
            std::env::temp_dir().join(format!("rove-compare-bad-{}.json", std::process::id()));
        std::fs::write(&bad, "{\"tasks\": 3}").expect("written");
        let good = file("good", serde_json::json!([]));
        let message = compare(&bad, &good).expect_err("refused").to_string();
        assert!(
            message.contains("rove-compare-bad") && message.contains("not a results.json"),
            "{message}"
        );
        let newer = file("newer", serde_json::json!([]));
        std::fs::write(&newer, "{\"schema\": 2, \"tasks\": []}").expect("written");
        let message = compare(&good, &newer).expect_err("refused").to_string();
        assert!(message.contains("schema 2"), "{message}");
        for path in [bad, good, newer] {
            std::fs::remove_file(path).expect("cleanup");
        }
    }
}
