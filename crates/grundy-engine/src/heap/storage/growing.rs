//! A table that grows at its end while other threads read its first
//! values, without copying them: the heap-by-heap finish of a block of a
//! Nim-sequence pushes its values while the block pass's tasks read the
//! heaps below the block.

use crate::heap::storage::store::Store;

/// A table that may only grow within the room it had when lent, so that
/// its buffers never move and its first values never change.
pub struct Growing<'a, S> {
    store: &'a mut S,
}

impl<S: Store> Growing<'_, S> {
    /// Appends `v`; false when it does not fit the table's kind. Panics
    /// rather than move the table past its room.
    #[inline]
    pub fn push(&mut self, v: u32) -> bool {
        assert!(self.store.has_room(), "a growing table is full");
        self.store.push(v)
    }

    /// The values so far, those pushed included.
    #[inline]
    pub fn view(&self) -> S::View<'_> {
        self.store.view()
    }

    pub fn len(&self) -> usize {
        self.store.len()
    }

    pub fn is_empty(&self) -> bool {
        self.store.is_empty()
    }
}

/// Runs `grow` and `read` at once (rayon's join): `grow` gets `table` to
/// push at most `room` values onto, `read` the values `table` holds now.
/// An error, with the table as it was, when the room cannot be had.
pub fn grow_while_reading<S: Store, A: Send, B: Send>(
    table: &mut S,
    room: usize,
    grow: impl FnOnce(&mut Growing<S>) -> A + Send,
    read: impl for<'v> FnOnce(S::View<'v>) -> B + Send,
) -> Result<(A, B), crate::heap::storage::paged::NoRoom> {
    table.try_reserve(room)?;
    // SAFETY: the view is the table's first values, read while `grow`
    // runs. `Growing` only pushes within the reserved room, so no buffer is
    // reallocated, and it writes only past them: the view's values are
    // neither moved nor written until both closures have returned (join
    // waits for both; `B` cannot hold the view, which is lent for the call
    // alone).
    let first = unsafe { table.view_detached() };
    let mut growing = Growing { store: table };
    Ok(rayon::join(move || grow(&mut growing), move || read(first)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reader_sees_the_first_values_while_the_table_grows() {
        let mut table: Vec<u16> = (0..1000).collect();
        let (pushed, sum) = grow_while_reading(
            &mut table,
            500,
            |g| {
                for v in 1000..1500 {
                    let below = g.view()[v as usize - 1];
                    assert!(g.push(below as u32 + 1));
                }
                g.len()
            },
            |first| first.iter().map(|&v| v as u64).sum::<u64>(),
        )
        .unwrap();
        assert_eq!((pushed, sum), (1500, 999 * 1000 / 2));
        assert_eq!(table, (0..1500).collect::<Vec<u16>>());
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
                let room = g.store.capacity() - g.len();
                for _ in 0..=room {
                    g.push(1);
                }
            },
            |first| first.len(),
        )
        .unwrap();
    }

    #[test]
    fn room_that_cannot_be_had_is_an_error_and_the_table_is_unchanged() {
        let mut table: Vec<u16> = (0..10).collect();
        let result = grow_while_reading(&mut table, usize::MAX / 2, |g| g.len(), |v| v.len());
        assert!(result.is_err());
        assert_eq!(table, (0..10).collect::<Vec<u16>>());
    }
}
