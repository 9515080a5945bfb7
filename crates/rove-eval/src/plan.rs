//! Which attempts a run makes: tasks with a wanted tag, each repeated, in
//! a fixed order, and for `--shard I/N` every N-th of them.

use rove_base::limits;

use crate::EvalError;
use crate::options::{RunOptions, Shard};
use crate::task::Task;

/// The attempts a run makes, in a fixed order, made one at a time as they
/// are asked for: a suite of many tasks, each repeated, costs a line per
/// task here, not one per attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// Each chosen task's index and how many attempts it gets, by name.
    tasks: Vec<(usize, u32)>,
    /// Attempts of the whole suite, before the shard is taken.
    whole: u64,
    shard: Option<Shard>,
}

impl Plan {
    /// Tasks with a wanted tag, each repeated, ordered by name then number
    /// (so the order does not depend on how files were listed), then every
    /// N-th attempt from the I-th for `--shard I/N`: the shards of one suite
    /// are disjoint, cover it, and differ in size by one at most. A repeat
    /// over [`limits::REPEAT_MAX`] or a suite of more than
    /// [`limits::ATTEMPTS_MAX`] attempts is refused.
    pub fn new(tasks: &[Task], options: &RunOptions) -> Result<Plan, EvalError> {
        if let Some(repeat) = options.repeat
            && !(1..=limits::REPEAT_MAX).contains(&repeat)
        {
            return Err(EvalError::Options(format!(
                "--repeat {repeat}: give 1 to {}",
                limits::REPEAT_MAX
            )));
        }
        let mut chosen: Vec<(usize, u32)> = Vec::new();
        let mut whole: u64 = 0;
        for (i, task) in tasks.iter().enumerate() {
            let wanted = options.tags.is_empty()
                || task.spec.tags.iter().any(|tag| options.tags.contains(tag));
            if !wanted {
                continue;
            }
            let times = options.repeat.or(task.spec.repeat).unwrap_or(1).max(1);
            if times > limits::REPEAT_MAX {
                return Err(EvalError::Options(format!(
                    "task {:?}: repeat {times} is more than {}",
                    task.spec.name,
                    limits::REPEAT_MAX
                )));
            }
            whole += u64::from(times);
            chosen.push((i, times));
        }
        if whole > limits::ATTEMPTS_MAX {
            return Err(EvalError::Options(format!(
                "{whole} attempts planned, more than the {} one run makes; use fewer repeats, --tags or --shard",
                limits::ATTEMPTS_MAX
            )));
        }
        chosen.sort_by(|a, b| tasks[a.0].spec.name.cmp(&tasks[b.0].spec.name));
        Ok(Plan {
            tasks: chosen,
            whole,
            shard: options.shard,
        })
    }

    /// How many attempts this plan makes (this shard's share).
    pub fn len(&self) -> usize {
        let taken = match self.shard {
            None => self.whole,
            Some(Shard { index, count }) => {
                let skipped = u64::from(index - 1);
                self.whole
                    .saturating_sub(skipped)
                    .div_ceil(u64::from(count))
            }
        };
        // At most ATTEMPTS_MAX, which fits the usize of any target.
        usize::try_from(taken).unwrap_or(usize::MAX)
    }

    /// Whether it makes no attempt.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The attempts, `(task index, attempt number)`, in order.
    pub fn iter(&self) -> impl Iterator<Item = (usize, u32)> + '_ {
        let (skip, step) = match self.shard {
            Some(Shard { index, count }) => (index as usize - 1, count as usize),
            None => (0, 1),
        };
        self.tasks
            .iter()
            .flat_map(|&(i, times)| (1..=times).map(move |k| (i, k)))
            .skip(skip)
            .step_by(step)
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
            screencast: false,
        }
    }

    const SUITE: &str = "- {name: c, task: x, repeat: 2, tags: [slow]}\n- {name: a, task: x, tags: [smoke]}\n- {name: b, task: x, tags: [smoke, slow]}\n";

    #[test]
    fn attempts_are_ordered_by_name_and_repeated() {
        let tasks = tasks(SUITE);
        let plan = Plan::new(&tasks, &options()).expect("planned");
        let named: Vec<(&str, u32)> = plan
            .iter()
            .map(|(t, k)| (tasks[t].spec.name.as_str(), k))
            .collect();
        assert_eq!(named, [("a", 1), ("b", 1), ("c", 1), ("c", 2)]);
        let plan = Plan::new(
            &tasks,
            &RunOptions {
                repeat: Some(2),
                ..options()
            },
        )
        .expect("planned");
        assert_eq!(plan.len(), 6, "--repeat overrides each task's repeat");
        assert_eq!(plan.iter().count(), 6);
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
        )
        .expect("planned");
        let names: Vec<&str> = plan
            .iter()
            .map(|(t, _)| tasks[t].spec.name.as_str())
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
        let whole = Plan::new(&forward, &options()).expect("planned");
        let mut union = Vec::new();
        for index in 1..=3 {
            let shard: Shard = format!("{index}/3").parse().expect("a shard");
            let one = Plan::new(
                &forward,
                &RunOptions {
                    shard: Some(shard),
                    ..options()
                },
            )
            .expect("planned");
            let other = Plan::new(
                &backward,
                &RunOptions {
                    shard: Some(shard),
                    ..options()
                },
            )
            .expect("planned");
            let names = |plan: &Plan, tasks: &[Task]| -> Vec<String> {
                plan.iter()
                    .map(|(t, _)| tasks[t].spec.name.clone())
                    .collect()
            };
            assert_eq!(names(&one, &forward), names(&other, &backward));
            assert!((2..=3).contains(&one.len()));
            assert_eq!(one.len(), one.iter().count());
            union.extend(one.iter());
        }
        union.sort();
        let mut all: Vec<(usize, u32)> = whole.iter().collect();
        all.sort();
        assert_eq!(union, all);
    }

    #[test]
    fn repeats_and_suites_are_bounded_and_planned_lazily() {
        let huge = tasks("- {name: a, task: x, repeat: 10000}\n- {name: b, task: x}\n");
        let started = std::time::Instant::now();
        let plan = Plan::new(&huge, &options()).expect("10,000 repeats are allowed");
        assert_eq!(plan.len(), 10_001);
        assert_eq!(plan.iter().last(), Some((1, 1)));
        let sharded = Plan::new(
            &huge,
            &RunOptions {
                shard: Some("3/7".parse().expect("a shard")),
                ..options()
            },
        )
        .expect("planned");
        assert_eq!(sharded.len(), sharded.iter().count());
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
        for repeat in [0, u32::MAX, limits::REPEAT_MAX + 1] {
            let refused = Plan::new(
                &huge,
                &RunOptions {
                    repeat: Some(repeat),
                    ..options()
                },
            )
            .expect_err("out of bounds");
            assert!(refused.to_string().contains("--repeat"), "{refused}");
        }
        let many: String = (0..101)
            .map(|i| format!("- {{name: t{i}, task: x, repeat: 10000}}\n"))
            .collect();
        let refused = Plan::new(&tasks(&many), &options()).expect_err("over ATTEMPTS_MAX");
        assert!(
            refused.to_string().contains("1010000 attempts"),
            "{refused}"
        );
    }

    #[test]
    fn a_shard_must_be_i_of_n() {
        for bad in [
            "0/2",
            "3/2",
            "1/0",
            "1",
            "a/b",
            "1/2/3",
            "1/4294967295",
            "1/10001",
        ] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        assert_eq!("2/4".parse::<Shard>().expect("fine").to_string(), "2/4");
    }
}
