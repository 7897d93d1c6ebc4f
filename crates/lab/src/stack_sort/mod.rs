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

//! # The improvements the seed suggests but did not implement
//!
//! "If there was a way to further hash the values, such as by multiples of 10 or 100 [...].
//! Another possible way would be to store the minimum and second minimum from the stacks [...].
//! Also, if there was a way for a node to point to the next one during the insert process,
//! then the remove function would be linear." Each is its own variant, on v2's linked stacks:
//!
//! * [`hashed`] with 1 or 2 leading digits ([`fine_bucket`]): v3 with each power of ten split
//!   again by the value's first digit (10 buckets, "multiples of 10") or first two digits (90
//!   buckets, "multiples of 100").
//! * [`min2`]: one walk finds the smallest top and the second smallest; the smallest stack is
//!   popped for as long as its top stays at most the second ([`StackList::drain_min2`]).
//! * [`linear`]: our reading of the third: the inserts already leave the list sorted by top,
//!   so the remove phase keeps it sorted (the popped head node moves forwards to its place)
//!   and the smallest value is always the head's top; no walk over the whole list
//!   ([`StackList::drain_sorted`]). A remove costs the distance the node moves.

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

    /// Empties the list into `out` in ascending order with the seed's second suggestion:
    /// one walk finds the stack with the smallest top *and* the second smallest top of the
    /// other stacks; the smallest stack is then popped as long as its top stays at most that
    /// second minimum, so one walk pays for a run of values instead of one.
    pub fn drain_min2(&mut self, out: &mut [T]) {
        let mut slots = out.iter_mut();
        while let Some(head) = self.head {
            let (mut min, mut min_previous) = (head, None);
            let mut min_top = self.top(head);
            let mut second: Option<T> = None;
            let (mut previous, mut current) = (head, self.nodes[head].next);
            while let Some(node) = current {
                let top = self.top(node);
                if min_top > top {
                    second = Some(min_top);
                    (min, min_previous, min_top) = (node, Some(previous), top);
                } else if second.is_none_or(|s| top < s) {
                    second = Some(top);
                }
                previous = node;
                current = self.nodes[node].next;
            }
            loop {
                let value = self.nodes[min].stack.pop().expect("non-empty stack");
                *slots.next().expect("as many slots as values") = value;
                match self.nodes[min].stack.top() {
                    None => {
                        let after = self.nodes[min].next;
                        match min_previous {
                            None => self.head = after,
                            Some(p) => self.nodes[p].next = after,
                        }
                        self.nodes[min].stack = S::default();
                        break;
                    }
                    Some(&top) if second.is_some_and(|s| top > s) => break,
                    Some(_) => {}
                }
            }
        }
    }

    /// Empties the list into `out` in ascending order with the seed's third suggestion, the
    /// remove without a walk over the whole list. After the inserts the tops increase along
    /// the list (an insert lands on the first stack whose top is `>=` the value, and a new
    /// stack only gets a value above every top), so the smallest value is the head's top.
    /// Each remove pops the head and moves the head node forwards to where its new top
    /// belongs, keeping the list sorted by top: a remove costs the distance the node moves,
    /// not the length of the list.
    pub fn drain_sorted(&mut self, out: &mut [T]) {
        let mut slots = out.iter_mut();
        while let Some(head) = self.head {
            let value = self.nodes[head].stack.pop().expect("non-empty stack");
            *slots.next().expect("as many slots as values") = value;
            let Some(&top) = self.nodes[head].stack.top() else {
                self.head = self.nodes[head].next;
                self.nodes[head].stack = S::default();
                continue;
            };
            let Some(second) = self.nodes[head].next else {
                continue;
            };
            if top <= self.top(second) {
                continue;
            }
            // Unlink the head and insert it after the last node whose top is below `top`.
            self.head = Some(second);
            let mut before = second;
            while let Some(next) = self.nodes[before].next {
                if self.top(next) >= top {
                    break;
                }
                before = next;
            }
            self.nodes[head].next = self.nodes[before].next;
            self.nodes[before].next = Some(head);
        }
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

/// Sorts `a` with v2's list and the seed's suggested "minimum and second minimum" remove
/// ([`StackList::drain_min2`]).
pub fn min2<T: Ord + Copy>(a: &mut [T]) {
    let mut list = StackList::<T, LinkedStack<T>>::new();
    for &value in a.iter() {
        list.insert(value);
    }
    list.drain_min2(a);
}

/// Sorts `a` with v2's list and the seed's suggested linear remove: the list kept sorted by
/// top, so the smallest value is always at the head ([`StackList::drain_sorted`]).
pub fn linear<T: Ord + Copy>(a: &mut [T]) {
    let mut list = StackList::<T, LinkedStack<T>>::new();
    for &value in a.iter() {
        list.insert(value);
    }
    list.drain_sorted(a);
}

/// The finer hash the seed suggests ("further hash the values, such as by multiples of 10 or
/// 100"), read as: within each power of ten, split by the leading `lead` digits. Values below
/// `10^lead` each get their own bucket; a value with `d > lead` digits goes to the bucket of
/// its first `lead` digits among the buckets of `d`-digit values. Negative values mirror
/// this below the non-negative ones. Buckets are ordered like their values, and
/// [`fine_buckets`] gives their number.
///
/// ```
/// use ply_lab::stack_sort::{fine_bucket, fine_buckets};
/// // by the leading digit (10 buckets per power of ten)
/// assert!(fine_bucket(199, 1) < fine_bucket(200, 1));
/// assert_eq!(fine_bucket(200, 1), fine_bucket(299, 1));
/// assert!(fine_bucket(-1, 1) < fine_bucket(0, 1));
/// assert!(fine_bucket(i64::MIN, 2) < fine_bucket(-1, 2));
/// assert!(fine_bucket(i64::MAX, 2) < fine_buckets(2));
/// ```
pub fn fine_bucket(value: i64, lead: u32) -> usize {
    let half = fine_buckets(lead) / 2;
    let id = |m: u64| -> usize {
        let small = 10u64.pow(lead);
        if m < small {
            return m as usize;
        }
        let digits = m.ilog10() + 1;
        let first = m / 10u64.pow(digits - lead);
        let per_power = 9 * 10usize.pow(lead - 1);
        small as usize
            + (digits - lead - 1) as usize * per_power
            + (first - 10u64.pow(lead - 1)) as usize
    };
    if value >= 0 {
        half + id(value.unsigned_abs())
    } else {
        half - id(value.unsigned_abs())
    }
}

/// The number of buckets of [`fine_bucket`] with `lead` leading digits (1 to 3).
pub fn fine_buckets(lead: u32) -> usize {
    assert!((1..=3).contains(&lead), "1 to 3 leading digits");
    // u64 values have up to 20 digits; ids run from 0 to the id of u64::MAX's bucket.
    let per_power = 9 * 10usize.pow(lead - 1);
    2 * (10usize.pow(lead) + (20 - lead as usize) * per_power)
}

/// Sorts `a` with v3 hashed finer: one v2 list per bucket of [`fine_bucket`] (`lead` = 1:
/// by multiples of 10, 10 buckets per power of ten; `lead` = 2: by multiples of 100).
pub fn hashed(a: &mut [i64], lead: u32) {
    let mut buckets: Vec<StackList<i64, LinkedStack<i64>>> =
        (0..fine_buckets(lead)).map(|_| StackList::new()).collect();
    for &value in a.iter() {
        buckets[fine_bucket(value, lead)].insert(value);
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
