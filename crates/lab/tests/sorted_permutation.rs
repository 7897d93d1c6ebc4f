//! Property tests: every algorithm returns the sorted permutation of its input, on arbitrary
//! arrays and on the awkward ones (empty, single, many duplicates, the extremes of `i64`).

use proptest::prelude::*;

use ply_lab::check::verify;
use ply_lab::{Algorithm, patience, stack_sort};

fn sorts_everything(input: &[i64]) -> Result<(), TestCaseError> {
    for algorithm in Algorithm::ALL {
        let mut output = input.to_vec();
        algorithm.sort(&mut output);
        prop_assert_eq!(verify(input, &output), None, "{} on {:?}", algorithm, input);
    }
    Ok(())
}

/// Values that stress comparisons and v3's digit buckets.
fn awkward() -> impl Strategy<Value = i64> {
    prop_oneof![
        Just(i64::MIN),
        Just(i64::MIN + 1),
        Just(-1i64),
        Just(0i64),
        Just(1i64),
        Just(i64::MAX - 1),
        Just(i64::MAX),
        (-12i64..12).prop_map(|e| e.signum() * 10i64.pow(e.unsigned_abs() as u32)),
        any::<i64>(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn arbitrary_arrays(input in prop::collection::vec(any::<i64>(), 0..200)) {
        sorts_everything(&input)?;
    }

    #[test]
    fn heavy_duplicates(input in prop::collection::vec(0i64..4, 0..200)) {
        sorts_everything(&input)?;
    }

    #[test]
    fn extremes_and_powers_of_ten(input in prop::collection::vec(awkward(), 0..100)) {
        sorts_everything(&input)?;
    }

    #[test]
    fn empty_and_single(input in prop::collection::vec(any::<i64>(), 0..=1)) {
        sorts_everything(&input)?;
    }

    #[test]
    fn long_runs_up_and_down(
        runs in prop::collection::vec((any::<bool>(), 1usize..60, -50i64..50), 1..8)
    ) {
        let mut input = Vec::new();
        for (up, len, start) in runs {
            let run = (0..len as i64).map(|i| start + if up { i } else { -i });
            input.extend(run);
        }
        sorts_everything(&input)?;
    }

    /// Differential: patience sort deals exactly the stacks stack sort's pseudocode builds.
    #[test]
    fn patience_piles_are_stack_sorts_stacks(input in prop::collection::vec(0i64..50, 0..150)) {
        let mut list = stack_sort::StackList::<i64, Vec<i64>>::new();
        for &v in &input {
            list.insert(v);
        }
        prop_assert_eq!(list.stacks(), patience::piles(&input));
    }

    /// The generic sorts work on other element types too.
    #[test]
    fn generic_over_element_type(input in prop::collection::vec(any::<u8>(), 0..100)) {
        let mut expected = input.clone();
        expected.sort();
        let sorts: [fn(&mut [u8]); 7] = [
            stack_sort::v1, stack_sort::v2, patience::sort, ply_lab::baselines::insertion,
            ply_lab::baselines::merge, ply_lab::baselines::quick, ply_lab::baselines::heap,
        ];
        for sort in sorts {
            let mut output = input.clone();
            sort(&mut output);
            prop_assert_eq!(&output, &expected);
        }
    }
}
