//! A table that grows at its end while other threads read its first
//! values, without copying them: the heap-by-heap finish of a block of a
//! Nim-sequence pushes its values while the block pass's tasks read the
//! heaps below the block.

use std::ops::Deref;

/// A `Vec` that may only grow within the capacity it had when lent, so
/// that its buffer never moves and its first values never change.
pub struct Growing<'a, T> {
    vec: &'a mut Vec<T>,
}

impl<T> Growing<'_, T> {
    /// Appends `value`; panics rather than reallocate past the capacity.
    #[inline]
    pub fn push(&mut self, value: T) {
        assert!(
            self.vec.len() < self.vec.capacity(),
            "a growing table is full"
        );
        self.vec.push(value);
    }
}

impl<T> Deref for Growing<'_, T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        self.vec
    }
}

/// Runs `grow` and `read` at once (rayon's join): `grow` gets `table` to
/// push at most `room` values onto, `read` the values `table` holds now.
pub fn grow_while_reading<T: Send + Sync, A: Send, B: Send>(
    table: &mut Vec<T>,
    room: usize,
    grow: impl FnOnce(&mut Growing<T>) -> A + Send,
    read: impl FnOnce(&[T]) -> B + Send,
) -> (A, B) {
    table.reserve(room);
    // SAFETY: the slice is the table's first `len` values, read while
    // `grow` runs. `Growing` only pushes within the reserved capacity, so
    // the buffer is not reallocated, and it writes only past `len`: the
    // slice's values are neither moved nor written until both closures have
    // returned (join waits for both; `B` cannot hold the slice, which is
    // lent for the call alone). `Vec::push` writes through the buffer's raw
    // pointer, not through a reference to the whole buffer.
    let first = unsafe { std::slice::from_raw_parts(table.as_ptr(), table.len()) };
    let mut growing = Growing { vec: table };
    rayon::join(move || grow(&mut growing), move || read(first))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reader_sees_the_first_values_while_the_table_grows() {
        let mut table: Vec<u32> = (0..1000).collect();
        let (pushed, sum) = grow_while_reading(
            &mut table,
            500,
            |g| {
                for v in 1000..1500 {
                    let below = g[v as usize - 1];
                    g.push(below + 1);
                }
                g.len()
            },
            |first| first.iter().map(|&v| v as u64).sum::<u64>(),
        );
        assert_eq!((pushed, sum), (1500, 999 * 1000 / 2));
        assert_eq!(table, (0..1500).collect::<Vec<u32>>());
    }

    #[test]
    #[should_panic(expected = "a growing table is full")]
    fn a_push_past_the_room_panics_instead_of_moving_the_buffer() {
        let mut table = vec![0u8; 4];
        table.shrink_to_fit();
        grow_while_reading(
            &mut table,
            2,
            |g| {
                let room = g.vec.capacity() - g.len();
                for _ in 0..=room {
                    g.push(1);
                }
            },
            |first| first.len(),
        );
    }
}
