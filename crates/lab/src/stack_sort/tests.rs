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
    let hash10 = |a: &mut [i64]| hashed(a, 1);
    let hash100 = |a: &mut [i64]| hashed(a, 2);
    type Sort<'a> = &'a dyn Fn(&mut [i64]);
    let sorts: [Sort; 7] = [
        &v1::<i64>,
        &v2::<i64>,
        &v3,
        &hash10,
        &hash100,
        &min2::<i64>,
        &linear::<i64>,
    ];
    for sort in sorts {
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

#[test]
fn tops_increase_along_the_list_after_the_inserts() {
    // What the linear remove relies on: after the inserts the list is sorted by top.
    let tops = |values: &[i64]| -> Vec<i64> {
        stacks_after_insert::<LinkedStack<i64>>(values)
            .iter()
            .map(|s| *s.last().unwrap())
            .collect()
    };
    assert_eq!(tops(&SAMPLE), vec![3, 4, 5, 7, 8]);
    let mut x = 12345u64;
    let values: Vec<i64> = (0..2000)
        .map(|_| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 40) as i64 % 1000
        })
        .collect();
    assert!(tops(&values).windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn min2_and_linear_keep_sorting_after_the_list_reorders() {
    // Runs that leave equal and crossing tops behind, where the second minimum and the
    // node moves matter.
    let input: Vec<i64> = (0..300).map(|i| (i * 37 % 101) - (i % 7) * 13).collect();
    let mut want = input.clone();
    want.sort_unstable();
    for sort in [min2::<i64>, linear::<i64>] {
        let mut a = input.clone();
        sort(&mut a);
        assert_eq!(a, want);
    }
}

#[test]
fn fine_buckets_are_ordered_and_in_range() {
    for lead in 1..=3 {
        let mut probes = vec![i64::MIN, i64::MIN + 1, i64::MAX, i64::MAX - 1, 0, 1, -1];
        for e in 0..19u32 {
            let p = 10i64.pow(e);
            probes.extend([p - 1, p, p + 1, 2 * p, -p, -p + 1, -p - 1, -(2 * p)]);
            if e < 18 {
                probes.extend([9 * p, 9 * p + p - 1, -9 * p, -(9 * p + p - 1)]);
            }
        }
        probes.sort_unstable();
        for w in probes.windows(2) {
            assert!(
                fine_bucket(w[0], lead) <= fine_bucket(w[1], lead),
                "{w:?} lead {lead}"
            );
        }
        assert!(
            probes
                .iter()
                .all(|&v| fine_bucket(v, lead) < fine_buckets(lead))
        );
    }
    // by the leading digit: 200..=299 share a bucket, 199 and 300 do not
    assert_eq!(fine_bucket(200, 1), fine_bucket(299, 1));
    assert_ne!(fine_bucket(199, 1), fine_bucket(200, 1));
    assert_ne!(fine_bucket(299, 1), fine_bucket(300, 1));
    // by the two leading digits: 120..=129 share a bucket
    assert_eq!(fine_bucket(120, 2), fine_bucket(129, 2));
    assert_ne!(fine_bucket(129, 2), fine_bucket(130, 2));
    // values below 10^lead each have their own bucket
    assert_ne!(fine_bucket(98, 2), fine_bucket(99, 2));
}
