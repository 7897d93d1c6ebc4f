//! The baselines stack sort is measured against: textbook insertion, merge, quick and heap sort.
//!
//! Written plainly, as a course or the seed's Java benchmark would have them, with the two
//! standard refinements any fair baseline has: merge and quick sort hand runs of at most
//! [`SMALL`] values to insertion sort, and quicksort takes the median of three as pivot and
//! recurses into the smaller side only (so its stack depth is `O(log n)`). The standard
//! library's sorts are measured as they are (`slice::sort`, `slice::sort_unstable`).

/// Runs this short are finished by insertion sort in [`merge`] and [`quick`].
pub const SMALL: usize = 16;

/// Insertion sort: `Θ(n²)` comparisons and moves on random input, `Θ(n)` on sorted input.
pub fn insertion<T: Ord + Copy>(a: &mut [T]) {
    for i in 1..a.len() {
        let value = a[i];
        let mut j = i;
        while j > 0 && a[j - 1] > value {
            a[j] = a[j - 1];
            j -= 1;
        }
        a[j] = value;
    }
}

/// Top-down merge sort with one scratch buffer; stable, `Θ(n log n)`.
pub fn merge<T: Ord + Copy>(a: &mut [T]) {
    let mut scratch = a.to_vec();
    merge_sort(a, &mut scratch);
}

fn merge_sort<T: Ord + Copy>(a: &mut [T], scratch: &mut [T]) {
    let n = a.len();
    if n <= SMALL {
        insertion(a);
        return;
    }
    let mid = n / 2;
    merge_sort(&mut a[..mid], &mut scratch[..mid]);
    merge_sort(&mut a[mid..], &mut scratch[mid..]);
    if a[mid - 1] <= a[mid] {
        return;
    }
    scratch[..n].copy_from_slice(a);
    let (left, right) = scratch[..n].split_at(mid);
    let (mut i, mut j) = (0, 0);
    for slot in a.iter_mut() {
        if j == right.len() || (i < left.len() && left[i] <= right[j]) {
            *slot = left[i];
            i += 1;
        } else {
            *slot = right[j];
            j += 1;
        }
    }
}

/// Quicksort: median-of-three pivot, Hoare partition; `O(n log n)` expected, `O(n²)` worst.
pub fn quick<T: Ord + Copy>(mut a: &mut [T]) {
    while a.len() > SMALL {
        let split = partition(a);
        let (left, right) = std::mem::take(&mut a).split_at_mut(split);
        if left.len() < right.len() {
            quick(left);
            a = right;
        } else {
            quick(right);
            a = left;
        }
    }
    insertion(a);
}

/// Hoare partition around the median of the first, middle and last values. Returns `k` with
/// `0 < k < a.len()`, every value of `a[..k]` `<=` every value of `a[k..]`.
fn partition<T: Ord + Copy>(a: &mut [T]) -> usize {
    let (last, mid) = (a.len() - 1, (a.len() - 1) / 2);
    if a[mid] < a[0] {
        a.swap(mid, 0);
    }
    if a[last] < a[0] {
        a.swap(last, 0);
    }
    if a[last] < a[mid] {
        a.swap(last, mid);
    }
    let pivot = a[mid];
    let (mut i, mut j) = (0, last);
    loop {
        while a[i] < pivot {
            i += 1;
        }
        while a[j] > pivot {
            j -= 1;
        }
        if i >= j {
            return j + 1;
        }
        a.swap(i, j);
        i += 1;
        j -= 1;
    }
}

/// Heap sort: a max-heap built in place, then repeatedly moved to the end; `Θ(n log n)`.
pub fn heap<T: Ord + Copy>(a: &mut [T]) {
    let n = a.len();
    for root in (0..n / 2).rev() {
        sift_down(a, root, n);
    }
    for end in (1..n).rev() {
        a.swap(0, end);
        sift_down(a, 0, end);
    }
}

fn sift_down<T: Ord + Copy>(a: &mut [T], mut root: usize, len: usize) {
    loop {
        let mut child = 2 * root + 1;
        if child >= len {
            return;
        }
        if child + 1 < len && a[child + 1] > a[child] {
            child += 1;
        }
        if a[root] >= a[child] {
            return;
        }
        a.swap(root, child);
        root = child;
    }
}
