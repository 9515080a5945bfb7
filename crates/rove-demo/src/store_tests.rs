//! Unit tests of the shop's state: orders, validation, sessions,
//! registration and the numbered copies of seeded accounts.
//! (A test module: its parent includes it under #[cfg(test)].)

use super::*;

fn details() -> Checkout {
    Checkout {
        name: "Ann Example".into(),
        address: "2 Main St".into(),
        city: "Town".into(),
        postcode: "54321".into(),
        card: "4242 4242 4242 4242".into(),
        shipping: "express".into(),
    }
}

#[test]
fn an_order_takes_the_cart_and_charges_shipping_and_the_coupon() {
    let mut state = State::new();
    let ann = state.account_mut("ann").expect("ann");
    ann.cart = line("shelf", 1).into_iter().collect();
    ann.coupon = Some(COUPON);
    let id = state.place_order("ann", &details()).expect("placed");
    assert_eq!(id, 2001);
    let ann = state.account("ann").expect("ann");
    assert!(ann.cart.is_empty());
    let order = &ann.orders[0];
    assert_eq!(
        (order.subtotal, order.discount, order.shipping_cost),
        (7900, 790, 1499)
    );
    assert_eq!(order.total(), 7900 - 790 + 1499);
    assert_eq!(order.card_last4, "4242");
}

#[test]
fn checkout_refuses_bad_fields_and_an_empty_cart() {
    let mut state = State::new();
    let bad = Checkout {
        postcode: "12AB".into(),
        card: "4242 4242 4242 4241".into(),
        ..details()
    };
    let errors = state.place_order("ben", &bad).expect_err("refused");
    assert_eq!(errors.len(), 3, "{errors:?}");
    assert!(errors.iter().any(|e| e.starts_with("Postcode")));
    assert!(state.account("ben").expect("ben").orders.is_empty());
}

#[test]
fn sessions_log_in_and_out_and_registration_validates() {
    let mut state = State::new();
    assert!(state.login("ann", "wrong").is_none());
    let token = state.login("ann", SEED_PASSWORD).expect("token");
    assert_eq!(state.user_of(&token), Some("ann"));
    assert!(state.logged_in("ann"));
    state.logout(&token);
    assert!(!state.logged_in("ann"));
    assert!(state.register("ann", "longenough", "longenough").is_err());
    assert!(state.register("new-one", "short", "short").is_err());
    let token = state
        .register("new-one", "longenough", "longenough")
        .expect("new");
    assert_eq!(state.user_of(&token), Some("new-one"));
    assert_eq!(state.account("kim").expect("kim").orders[0].id, 1001);
}

#[test]
fn numbered_copies_start_as_their_seeded_account() {
    let mut state = State::new();
    assert!(state.login("kim-2", SEED_PASSWORD).is_some());
    let copy = state.account("kim-2").expect("a copy");
    assert_eq!(
        (copy.display_name.as_str(), copy.orders[0].total()),
        ("Kim", 2899)
    );
    for not_a_copy in ["kim-1", "kim-02", "kim-1000", "bob-2", "newcomer-2"] {
        state.ensure(not_a_copy);
        assert!(state.account(not_a_copy).is_none(), "{not_a_copy}");
    }
    // Registering a copy's name is refused once it exists, allowed before.
    assert!(
        state
            .register("newcomer-2", "longenough", "longenough")
            .is_ok()
    );
}
