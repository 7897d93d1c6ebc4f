//! "Stack sort", the seed's sorting algorithm, in its three published versions.
//!
//! # The algorithm (seed 003, section "stack sort")
//!
//! Keep a singly linked list of stacks. To sort `A`, insert every value, then remove values one
//! at a time back into `A`:
//!
//! * **insert(value)**: if the list is empty, start it with a stack holding `value`. Otherwise
//!   walk the list from the head and push `value` onto the first stack whose top is `>= value`;
//!   if no stack qualifies, append a new node at the end of the list holding `value`.
//! * **remove()**: walk the whole list, remembering the node with the smallest top (the first
//!   one on ties, since the pseudocode replaces `min` only when `top of min > top of next`) and
//!   its predecessor; pop that stack, and unlink its node if the stack became empty.
//!
//! Every stack is non-increasing from bottom to top, so its top is its minimum and the smallest
//! top is the smallest value left. The seed's sample `[5 3 8 4 6 10 7 8 5 5]` builds the stacks
//! (bottom to top) `[5 3] [8 4] [6 5 5] [10 7] [8]`.
//!
//! This is patience sorting (Mallows, 1960s) with a linear scan in both phases: inserting costs
//! the number of stacks scanned and every removal costs the number of stacks. On random input
//! there are about `2√n` stacks, so the sort is `Θ(n^1.5)`; on ascending input every value
//! starts a new stack, so it is `Θ(n²)`; on descending input everything lands on the head stack
//! and it is `Θ(n)`. [`crate::patience`] is the same idea done in `O(n log n)`.
//!
//! # The three versions, and how they are rendered here
//!
//! The seed: "The first version [...] used the pseudocode described above and used the built-in
//! Java stack library. The second version was exactly the same as the first version, except we
//! implemented stacks ourselves using linked lists. [...] The third version we introduced a hash
//! table. The hash table makes an array based on powers of 10. We did this so that each list
//! would be smaller".
//!
//! * [`v1`]: the list of nodes is our own singly linked list; each node's stack is the standard
//!   library's stack, a [`Vec`] (Java's was `java.util.Stack`).
//! * [`v2`]: the same list; each stack is our own singly linked list of heap cells, one
//!   allocation per push, as a Java object per push ([`LinkedStack`]).
//! * [`v3`]: v2's structure, one per "power of ten": a value goes to the list of its number of
//!   decimal digits, and removal drains the lists in increasing order. The seed's Java code is not
//!   in the seed text, so the bucket rule is our reading of "an array based on powers of 10";
//!   negative values (which the seed's random arrays never held) get their own buckets, ordered so
//!   that draining the buckets in index order still yields ascending values ([`digit_bucket`]).
//!
//! The list of nodes lives in an arena (`Vec` of nodes linked by index) so that `remove` can
//! keep a `previous` link during its single walk, as the pseudocode does, without `unsafe`.
//! Unlinked nodes are left in the arena (their stacks are dropped); the arena holds at most one
//! node per value. The pseudocode's insert checks the head and then "every node in list",
//! which checks the head a second time; that redundant comparison is left out.

mod linked_stack;

pub use linked_stack::LinkedStack;

/// The stack operations the list of stacks needs; the versions differ only in this type.
pub trait Stack<T>: Default {
    /// Puts `value` on top.
    fn push(&mut self, value: T);
    /// Takes the top value off, if any.
    fn pop(&mut self) -> Option<T>;
    /// The top value, if any.
    fn top(&self) -> Option<&T>;
    /// A copy of the values from bottom to top.
    fn values(&self) -> Vec<T>
    where
        T: Clone;
}

impl<T> Stack<T> for Vec<T> {
    fn push(&mut self, value: T) {
        Vec::push(self, value);
    }
    fn pop(&mut self) -> Option<T> {
        Vec::pop(self)
    }
    fn top(&self) -> Option<&T> {
        self.last()
    }
    fn values(&self) -> Vec<T>
    where
        T: Clone,
    {
        self.clone()
    }
}

/// The seed's "linked list of stacks", generic over the stack type.
///
/// Nodes in the list always hold a non-empty stack.
#[derive(Debug)]
pub struct StackList<T, S> {
    nodes: Vec<Node<S>>,
    head: Option<usize>,
    _values: std::marker::PhantomData<T>,
}

#[derive(Debug)]
struct Node<S> {
    stack: S,
    next: Option<usize>,
}

impl<T, S> Default for StackList<T, S> {
    fn default() -> Self {
        Self {
            nodes: Vec::new(),
            head: None,
            _values: std::marker::PhantomData,
        }
    }
}

impl<T: Ord + Copy, S: Stack<T>> StackList<T, S> {
    /// An empty list.
    pub fn new() -> Self {
        Self::default()
    }

    fn top(&self, node: usize) -> T {
        *self.nodes[node]
            .stack
            .top()
            .expect("stacks in the list are never empty")
    }

    fn new_node(&mut self, value: T) -> usize {
        let mut stack = S::default();
        stack.push(value);
        self.nodes.push(Node { stack, next: None });
        self.nodes.len() - 1
    }

    /// Pushes `value` onto the first stack whose top is `>= value`, or onto a new stack at the
    /// end of the list.
    pub fn insert(&mut self, value: T) {
        let Some(mut current) = self.head else {
            self.head = Some(self.new_node(value));
            return;
        };
        loop {
            if value <= self.top(current) {
                self.nodes[current].stack.push(value);
                return;
            }
            match self.nodes[current].next {
                Some(next) => current = next,
                None => break,
            }
        }
        let node = self.new_node(value);
        self.nodes[current].next = Some(node);
    }

    /// Pops the smallest top in the list (the first such stack on ties), unlinking its node if
    /// it became empty; `None` when the list is empty.
    pub fn remove(&mut self) -> Option<T> {
        let head = self.head?;
        let (mut min, mut min_previous) = (head, None);
        let mut min_top = self.top(head);
        let (mut previous, mut current) = (head, self.nodes[head].next);
        while let Some(node) = current {
            let top = self.top(node);
            if min_top > top {
                (min, min_previous, min_top) = (node, Some(previous), top);
            }
            previous = node;
            current = self.nodes[node].next;
        }
        let value = self.nodes[min].stack.pop();
        if self.nodes[min].stack.top().is_none() {
            let after = self.nodes[min].next;
            match min_previous {
                None => self.head = after,
                Some(p) => self.nodes[p].next = after,
            }
            // Free the stack's storage now, as Java's collector would eventually.
            self.nodes[min].stack = S::default();
        }
        value
    }

    /// Whether no value is left.
    pub fn is_empty(&self) -> bool {
        self.head.is_none()
    }

    /// The stacks in list order, each from bottom to top (for tests and pictures).
    pub fn stacks(&self) -> Vec<Vec<T>> {
        let mut out = Vec::new();
        let mut current = self.head;
        while let Some(node) = current {
            out.push(self.nodes[node].stack.values());
            current = self.nodes[node].next;
        }
        out
    }
}

/// Sorts `a` with stack sort, version 1: the list's stacks are standard-library stacks (`Vec`).
pub fn v1<T: Ord + Copy>(a: &mut [T]) {
    sort_with::<T, Vec<T>>(a);
}

/// Sorts `a` with stack sort, version 2: the list's stacks are our own linked lists.
pub fn v2<T: Ord + Copy>(a: &mut [T]) {
    sort_with::<T, LinkedStack<T>>(a);
}

fn sort_with<T: Ord + Copy, S: Stack<T>>(a: &mut [T]) {
    let mut list = StackList::<T, S>::new();
    for &value in a.iter() {
        list.insert(value);
    }
    for slot in a.iter_mut() {
        *slot = list
            .remove()
            .expect("the list holds as many values as it was given");
    }
}

/// Number of buckets [`digit_bucket`] uses: 19 digit counts for negatives, 19 for the rest.
pub const BUCKETS: usize = 38;

/// v3's "powers of ten" hash: the bucket of `value`, by its number of decimal digits.
///
/// Non-negative values with `d` digits (0 has one) go to bucket `18 + d`; negative values with
/// `d` digits go to bucket `19 - d`, so more digits means further left. Every value of a bucket
/// is smaller than every value of the next bucket, which is what lets v3 drain the buckets in
/// order.
///
/// ```
/// use ply_lab::stack_sort::digit_bucket;
/// assert_eq!(digit_bucket(i64::MIN), 0);
/// assert_eq!(digit_bucket(-1), 18);
/// assert_eq!(digit_bucket(0), 19);
/// assert_eq!(digit_bucket(9), 19);
/// assert_eq!(digit_bucket(10), 20);
/// assert_eq!(digit_bucket(i64::MAX), 37);
/// ```
pub fn digit_bucket(value: i64) -> usize {
    let digits = |m: u64| m.checked_ilog10().unwrap_or(0) as usize + 1;
    if value >= 0 {
        18 + digits(value.unsigned_abs())
    } else {
        19 - digits(value.unsigned_abs())
    }
}

/// Sorts `a` with stack sort, version 3: one v2 list per decimal digit count ([`digit_bucket`]).
pub fn v3(a: &mut [i64]) {
    let mut buckets: Vec<StackList<i64, LinkedStack<i64>>> =
        (0..BUCKETS).map(|_| StackList::new()).collect();
    for &value in a.iter() {
        buckets[digit_bucket(value)].insert(value);
    }
    let mut bucket = 0;
    for slot in a.iter_mut() {
        while buckets[bucket].is_empty() {
            bucket += 1;
        }
        *slot = buckets[bucket]
            .remove()
            .expect("a non-empty bucket yields a value");
    }
}

#[cfg(test)]
mod tests;
