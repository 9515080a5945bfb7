//! Ref stability as a property: a page script mutates the DOM at random
//! (seeded: add, remove, move, edit), and across 100 views per seed every
//! surviving element keeps its ref and no ref is ever given to another
//! element. Every element is named by a unique id (`n17`) it keeps for life.

use crate::support;

use std::collections::HashMap;

use rove_page::{Ref, ViewOptions};
use support::{Env, named_refs, on_element};

const VIEWS: usize = 100;
const SEEDS: [u32; 3] = [1, 42, 2026];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refs_survive_random_mutations_and_are_never_reassigned() {
    let env = Env::start().await;
    for seed in SEEDS {
        let mut model = env.open("mutations.html").await;
        let mut ref_of: HashMap<String, Ref> = HashMap::new();
        let mut name_of: HashMap<Ref, String> = HashMap::new();
        let unlimited = ViewOptions {
            budget: Some(0),
            ..ViewOptions::default()
        };
        let mut checked = 0;
        for step in 0..VIEWS {
            let count = model
                .tab()
                .evaluate(&format!("window.steps({seed}, 3)"))
                .await
                .expect("mutate");
            let view = model.view(&unlimited).await.expect("view");
            let seen = named_refs(&view.text);
            assert!(
                !seen.is_empty() || count == 0,
                "seed {seed} step {step}: empty view"
            );
            for (r, name) in &seen {
                if let Some(previous) = ref_of.get(name) {
                    assert_eq!(
                        previous, r,
                        "seed {seed} step {step}: {name} changed its ref\n{}",
                        view.text
                    );
                }
                if let Some(previous) = name_of.get(r) {
                    assert_eq!(
                        previous, name,
                        "seed {seed} step {step}: {r} was reassigned\n{}",
                        view.text
                    );
                }
                ref_of.insert(name.clone(), *r);
                name_of.insert(*r, name.clone());
            }
            // The ref really reaches the element it names (two a step).
            for (r, name) in seen.iter().skip(step % 3).step_by(7).take(2) {
                let actual = on_element(
                    &mut model,
                    *r,
                    "return this.getAttribute('aria-label') || this.textContent;",
                )
                .await;
                assert_eq!(
                    actual,
                    serde_json::json!(name),
                    "seed {seed} step {step}: {r} resolves elsewhere"
                );
                checked += 1;
            }
        }
        assert!(
            ref_of.len() > 25,
            "seed {seed}: too few elements were exercised ({})",
            ref_of.len()
        );
        assert!(
            checked > 50,
            "seed {seed}: too few resolutions were checked ({checked})"
        );
    }
    env.close().await;
}
