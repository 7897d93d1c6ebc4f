//! A stack as a singly linked list of heap cells: stack sort version 2's own stack.

use super::Stack;

/// A stack built from one heap cell per value, linked from the top down.
#[derive(Debug)]
pub struct LinkedStack<T> {
    top: Option<Box<Cell<T>>>,
}

#[derive(Debug)]
struct Cell<T> {
    value: T,
    below: Option<Box<Cell<T>>>,
}

impl<T> Default for LinkedStack<T> {
    fn default() -> Self {
        Self { top: None }
    }
}

impl<T> Stack<T> for LinkedStack<T> {
    fn push(&mut self, value: T) {
        let below = self.top.take();
        self.top = Some(Box::new(Cell { value, below }));
    }

    fn pop(&mut self) -> Option<T> {
        let cell = self.top.take()?;
        self.top = cell.below;
        Some(cell.value)
    }

    fn top(&self) -> Option<&T> {
        self.top.as_ref().map(|cell| &cell.value)
    }

    fn values(&self) -> Vec<T>
    where
        T: Clone,
    {
        let mut out = Vec::new();
        let mut cell = self.top.as_deref();
        while let Some(c) = cell {
            out.push(c.value.clone());
            cell = c.below.as_deref();
        }
        out.reverse();
        out
    }
}

impl<T> Drop for LinkedStack<T> {
    // The default drop recurses once per cell and overflows the thread's stack on long chains.
    fn drop(&mut self) {
        let mut cell = self.top.take();
        while let Some(mut c) = cell {
            cell = c.below.take();
        }
    }
}
