//! Patience sorting done well: the best version of the stack-sort idea.
//!
//! The piles are built exactly as stack sort builds its stacks (each value goes on the leftmost
//! pile whose top is `>= value`, or on a new pile at the right). Pile tops are then always in
//! non-decreasing order, so the pile is found by binary search instead of a walk, and the piles
//! (each sorted, smallest on top) are merged with a min-heap of their tops instead of scanning
//! every top per value. Both phases are `O(n log p)` with `p` piles, `O(n log n)` in all.
//!
//! The seed's own "theoretical ways of making our algorithm faster" (finer hashing, remembering
//! the two smallest tops) shorten the walks; these two changes remove them.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::collections::binary_heap::PeekMut;

/// The piles patience sorting deals `values` into, each from bottom to top.
///
/// ```
/// // The seed's sample: the same stacks as stack sort's pseudocode.
/// let piles = ply_lab::patience::piles(&[5, 3, 8, 4, 6, 10, 7, 8, 5, 5]);
/// assert_eq!(piles, vec![vec![5, 3], vec![8, 4], vec![6, 5, 5], vec![10, 7], vec![8]]);
/// ```
pub fn piles<T: Ord + Copy>(values: &[T]) -> Vec<Vec<T>> {
    let mut piles: Vec<Vec<T>> = Vec::new();
    // A copy of the tops, contiguous for the binary search.
    let mut tops: Vec<T> = Vec::new();
    for &value in values {
        let i = tops.partition_point(|top| *top < value);
        if i == piles.len() {
            piles.push(vec![value]);
            tops.push(value);
        } else {
            piles[i].push(value);
            tops[i] = value;
        }
    }
    piles
}

/// Sorts `a` by patience sorting: binary search over the pile tops, heap merge of the piles.
pub fn sort<T: Ord + Copy>(a: &mut [T]) {
    let mut piles = piles(a);
    let mut heap: BinaryHeap<Reverse<(T, usize)>> = piles
        .iter_mut()
        .enumerate()
        .filter_map(|(i, pile)| pile.pop().map(|top| Reverse((top, i))))
        .collect();
    for slot in a.iter_mut() {
        let mut smallest = heap.peek_mut().expect("the piles hold every value");
        let Reverse((value, pile)) = *smallest;
        *slot = value;
        match piles[pile].pop() {
            Some(next) => *smallest = Reverse((next, pile)),
            None => {
                PeekMut::pop(smallest);
            }
        }
    }
}
