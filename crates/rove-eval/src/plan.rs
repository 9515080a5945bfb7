//! Which attempts a run makes: tasks with a wanted tag, each repeated, in
//! a fixed order, and for `--shard I/N` every N-th of them.

use crate::EvalError;
use crate::runner::RunOptions;
use crate::task::Task;

/// `--shard I/N`: the I-th of N slices (1-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// 1 ..= count.
    pub index: u32,
    /// How many slices.
    pub count: u32,
}

impl std::str::FromStr for Shard {
    type Err = EvalError;
    fn from_str(s: &str) -> Result<Shard, EvalError> {
        let bad = || EvalError::Options(format!("--shard {s:?}: give I/N with 1 ≤ I ≤ N, as 2/4"));
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u32 = i.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The attempts a run makes, in a fixed order: `(task index, attempt
/// number)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan(pub Vec<(usize, u32)>);

impl Plan {
    /// Tasks with a wanted tag, each repeated, ordered by name then number
    /// (so the order does not depend on how files were listed), then every
    /// N-th attempt from the I-th for `--shard I/N`: the shards of one suite
    /// are disjoint, cover it, and differ in size by one at most.
    pub fn new(tasks: &[Task], options: &RunOptions) -> Plan {
        let mut all: Vec<(usize, u32)> = tasks
            .iter()
            .enumerate()
            .filter(|(_, t)| {
                options.tags.is_empty() || t.spec.tags.iter().any(|tag| options.tags.contains(tag))
            })
            .flat_map(|(i, t)| {
                let times = options.repeat.or(t.spec.repeat).unwrap_or(1).max(1);
                (1..=times).map(move |k| (i, k))
            })
            .collect();
        all.sort_by(|a, b| {
            tasks[a.0]
                .spec
                .name
                .cmp(&tasks[b.0].spec.name)
                .then(a.1.cmp(&b.1))
        });
        if let Some(shard) = options.shard {
            all = all
                .into_iter()
                .enumerate()
                .filter(|(n, _)| *n as u64 % u64::from(shard.count) == u64::from(shard.index - 1))
                .map(|(_, a)| a)
                .collect();
        }
        Plan(all)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rove_agent::AgentConfig;
    use rove_commands::SessionConfig;
    use rove_llm::PriceTable;

    fn tasks(text: &str) -> Vec<Task> {
        crate::parse(text, std::path::Path::new("t.yaml"), &|_| None).expect("parses")
    }

    fn options() -> RunOptions {
        RunOptions {
            jobs: 1,
            repeat: None,
            shard: None,
            tags: Vec::new(),
            session: SessionConfig::default(),
            agent: AgentConfig::default(),
            out: None,
            prices: PriceTable::builtin(),
            judge: None,
            traces: crate::Traces::Off,
            trace_budget: rove_agent::SCREENSHOT_BUDGET,
        }
    }

    const SUITE: &str = "- {name: c, task: x, repeat: 2, tags: [slow]}\n- {name: a, task: x, tags: [smoke]}\n- {name: b, task: x, tags: [smoke, slow]}\n";

    #[test]
    fn attempts_are_ordered_by_name_and_repeated() {
        let tasks = tasks(SUITE);
        let plan = Plan::new(&tasks, &options());
        let named: Vec<(&str, u32)> = plan
            .0
            .iter()
            .map(|(t, k)| (tasks[*t].spec.name.as_str(), *k))
            .collect();
        assert_eq!(named, [("a", 1), ("b", 1), ("c", 1), ("c", 2)]);
        let plan = Plan::new(
            &tasks,
            &RunOptions {
                repeat: Some(2),
                ..options()
            },
        );
        assert_eq!(plan.0.len(), 6, "--repeat overrides each task's repeat");
    }

    #[test]
    fn tags_pick_tasks_with_any_of_them() {
        let tasks = tasks(SUITE);
        let plan = Plan::new(
            &tasks,
            &RunOptions {
                tags: vec!["smoke".into()],
                ..options()
            },
        );
        let names: Vec<&str> = plan
            .0
            .iter()
            .map(|(t, _)| tasks[*t].spec.name.as_str())
            .collect();
        assert_eq!(names, ["a", "b"]);
    }

    #[test]
    fn shards_are_disjoint_cover_the_suite_and_do_not_depend_on_file_order() {
        let text: String = (0..7)
            .map(|i| format!("- {{name: t{i}, task: x}}\n"))
            .collect();
        let forward = tasks(&text);
        let mut backward = forward.clone();
        backward.reverse();
        let whole = Plan::new(&forward, &options());
        let mut union = Vec::new();
        for index in 1..=3 {
            let shard: Shard = format!("{index}/3").parse().expect("a shard");
            let one = Plan::new(
                &forward,
                &RunOptions {
                    shard: Some(shard),
                    ..options()
                },
            );
            let other = Plan::new(
                &backward,
                &RunOptions {
                    shard: Some(shard),
                    ..options()
                },
            );
            let names = |plan: &Plan, tasks: &[Task]| -> Vec<String> {
                plan.0
                    .iter()
                    .map(|(t, _)| tasks[*t].spec.name.clone())
                    .collect()
            };
            assert_eq!(names(&one, &forward), names(&other, &backward));
            assert!((2..=3).contains(&one.0.len()));
            union.extend(one.0);
        }
        union.sort();
        let mut all = whole.0.clone();
        all.sort();
        assert_eq!(union, all);
    }

    #[test]
    fn a_shard_must_be_i_of_n() {
        for bad in ["0/2", "3/2", "1/0", "1", "a/b", "1/2/3"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        assert_eq!("2/4".parse::<Shard>().expect("fine").to_string(), "2/4");
    }
}
