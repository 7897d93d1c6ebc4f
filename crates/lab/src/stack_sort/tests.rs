use super::*;

/// The seed's sample input, and the stacks its pseudocode builds (worked by hand).
const SAMPLE: [i64; 10] = [5, 3, 8, 4, 6, 10, 7, 8, 5, 5];

fn sample_stacks() -> Vec<Vec<i64>> {
    vec![vec![5, 3], vec![8, 4], vec![6, 5, 5], vec![10, 7], vec![8]]
}

fn stacks_after_insert<S: Stack<i64>>(values: &[i64]) -> Vec<Vec<i64>> {
    let mut list = StackList::<i64, S>::new();
    for &v in values {
        list.insert(v);
    }
    list.stacks()
}

#[test]
fn seed_sample_builds_the_hand_worked_stacks() {
    assert_eq!(stacks_after_insert::<Vec<i64>>(&SAMPLE), sample_stacks());
    assert_eq!(
        stacks_after_insert::<LinkedStack<i64>>(&SAMPLE),
        sample_stacks()
    );
}

#[test]
fn seed_sample_sorts() {
    let want = [3, 4, 5, 5, 5, 6, 7, 8, 8, 10];
    for sort in [v1::<i64>, v2::<i64>, v3] {
        let mut a = SAMPLE;
        sort(&mut a);
        assert_eq!(a, want);
    }
}

#[test]
fn remove_unlinks_head_middle_and_last_nodes() {
    let mut list = StackList::<i64, LinkedStack<i64>>::new();
    for v in [2, 5, 1, 9, 3] {
        list.insert(v);
    }
    assert_eq!(list.stacks(), vec![vec![2, 1], vec![5, 3], vec![9]]);
    assert_eq!(list.remove(), Some(1));
    assert_eq!(list.remove(), Some(2)); // head node empties
    assert_eq!(list.stacks(), vec![vec![5, 3], vec![9]]);
    list.insert(4);
    list.insert(10);
    assert_eq!(list.stacks(), vec![vec![5, 3], vec![9, 4], vec![10]]);
    assert_eq!(list.remove(), Some(3));
    assert_eq!(list.remove(), Some(4));
    assert_eq!(list.remove(), Some(5)); // middle node (first) empties
    assert_eq!(list.stacks(), vec![vec![9], vec![10]]);
    assert_eq!(list.remove(), Some(9));
    assert_eq!(list.remove(), Some(10)); // last node empties
    assert!(list.is_empty());
    assert_eq!(list.remove(), None);
}

#[test]
fn ascending_input_makes_one_stack_per_value_and_descending_one_stack() {
    let up: Vec<i64> = (0..50).collect();
    assert_eq!(stacks_after_insert::<Vec<i64>>(&up).len(), 50);
    let down: Vec<i64> = (0..50).rev().collect();
    assert_eq!(stacks_after_insert::<Vec<i64>>(&down), vec![down.clone()]);
}

#[test]
fn digit_buckets_are_ordered() {
    let probes = [
        i64::MIN,
        -1_000_000_000_000_000_000,
        -999_999_999_999_999_999,
        -100,
        -99,
        -10,
        -9,
        -1,
        0,
        9,
        10,
        99,
        100,
        999_999_999,
        1_000_000_000,
        i64::MAX,
    ];
    for w in probes.windows(2) {
        assert!(digit_bucket(w[0]) <= digit_bucket(w[1]), "{w:?}");
    }
    assert_eq!(digit_bucket(-10), digit_bucket(-99));
    assert_ne!(digit_bucket(-9), digit_bucket(-10));
    assert!(probes.iter().all(|&v| digit_bucket(v) < BUCKETS));
}

#[test]
fn long_single_stack_drops_without_overflow() {
    let mut s = LinkedStack::default();
    for v in 0..1_000_000 {
        s.push(v);
    }
    drop(s);
}
