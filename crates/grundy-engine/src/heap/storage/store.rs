//! What a heap table's values are stored in (`Value`: one or two bytes),
//! and what the rare-value engine reads a table through (`Values`, a view)
//! and grows it through (`Store`): a plain vector of one- or two-byte
//! values, or a table of one byte a value with the few larger values kept
//! apart (`engine::heap::storage::escaped`).

use crate::heap::storage::paged::{Buf, NoRoom};

/// A value type a table can hold.
pub trait Value: bytemuck::Pod + Default + Eq + Send + Sync + Into<u32> + 'static {
    /// The largest value this type holds.
    const MAX: u32;
    /// `v`, which must be at most `MAX`.
    fn of(v: u32) -> Self;
    /// The value as a `u16` (every table value fits one).
    fn narrow(self) -> u16;
    /// A run of values as bytes, when the type is one byte.
    fn bytes(run: &[Self]) -> Option<&[u8]> {
        let _ = run;
        None
    }
    /// A run of values as `u16`s, when the type is two bytes.
    fn words(run: &[Self]) -> Option<&[u16]> {
        let _ = run;
        None
    }
}

impl Value for u8 {
    const MAX: u32 = u8::MAX as u32;
    #[inline]
    fn of(v: u32) -> u8 {
        v as u8
    }
    #[inline]
    fn narrow(self) -> u16 {
        self as u16
    }
    #[inline]
    fn bytes(run: &[u8]) -> Option<&[u8]> {
        Some(run)
    }
}

impl Value for u16 {
    const MAX: u32 = u16::MAX as u32;
    #[inline]
    fn of(v: u32) -> u16 {
        v as u16
    }
    #[inline]
    fn narrow(self) -> u16 {
        self
    }
    #[inline]
    fn words(run: &[u16]) -> Option<&[u16]> {
        Some(run)
    }
}

/// A view of a table's values G(first..first + len), cheap to copy.
pub trait Values: Copy + Send + Sync {
    /// What each value is stored in.
    type Unit: Value;
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The value at `i` of the view.
    fn at(&self, i: usize) -> u32;
    /// Values a..b of the view.
    fn range(&self, a: usize, b: usize) -> Self;
    /// The units, when every one of them is its value (always for a plain
    /// slice; for an escaped table, where the view holds no escape).
    fn exact(&self) -> Option<&[Self::Unit]>;
    /// Where the view's units are not their values (ascending).
    fn escapes(&self) -> Vec<usize>;
    /// The units, when the whole table holds no escape (a cheap test).
    fn no_escapes(&self) -> Option<&[Self::Unit]>;
    /// The view's values as two-byte values.
    fn wide(&self) -> Vec<u16> {
        (0..self.len()).map(|i| self.at(i) as u16).collect()
    }
}

impl<T: Value> Values for &[T] {
    type Unit = T;
    #[inline]
    fn len(&self) -> usize {
        <[T]>::len(self)
    }
    #[inline]
    fn at(&self, i: usize) -> u32 {
        self[i].into()
    }
    #[inline]
    fn range(&self, a: usize, b: usize) -> Self {
        &self[a..b]
    }
    #[inline]
    fn exact(&self) -> Option<&[T]> {
        Some(self)
    }
    fn escapes(&self) -> Vec<usize> {
        Vec::new()
    }
    #[inline]
    fn no_escapes(&self) -> Option<&[T]> {
        Some(self)
    }
}

/// What every table of values does, whatever else it is (`Store` for the
/// engine that grows it, `TableWidth` for what is read at its width): its
/// length, and a value appended at its end.
pub trait Column: Send + Sync {
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Appends `v`; false (and nothing appended) when `v` does not fit the
    /// table's kind.
    fn push(&mut self, v: u32) -> bool;
}

/// A table the engine appends to while other threads read its first values.
pub trait Store: Column {
    type View<'a>: Values
    where
        Self: 'a;
    fn view(&self) -> Self::View<'_>;
    /// Room for `room` more values, so that pushing them moves nothing; an
    /// error (and the table unchanged) when memory cannot be had.
    fn try_reserve(&mut self, room: usize) -> Result<(), NoRoom>;
    /// Whether one more value fits without moving what is stored.
    fn has_room(&self) -> bool;
    /// Values a..b, as a table of their own.
    fn copy_range(&self, a: usize, b: usize) -> Self
    where
        Self: Sized;
    /// A view of the values stored now, not tied to a borrow of `self`.
    ///
    /// # Safety
    /// While the view lives, the values it shows must neither move nor
    /// change: `self` may only `push` within the room it has.
    unsafe fn view_detached<'a>(&self) -> Self::View<'a>;
}

impl<T: Value> Column for Vec<T> {
    fn len(&self) -> usize {
        Vec::len(self)
    }
    #[inline]
    fn push(&mut self, v: u32) -> bool {
        if v > T::MAX {
            return false;
        }
        Vec::push(self, T::of(v));
        true
    }
}

impl<T: Value> Store for Vec<T> {
    type View<'a> = &'a [T];
    fn view(&self) -> &[T] {
        self
    }
    fn try_reserve(&mut self, room: usize) -> Result<(), NoRoom> {
        grundy_core::interrupt::fallible(|| Vec::try_reserve(self, room)).map_err(|_| NoRoom)
    }
    fn has_room(&self) -> bool {
        Vec::len(self) < self.capacity()
    }
    fn copy_range(&self, a: usize, b: usize) -> Vec<T> {
        self[a..b].to_vec()
    }
    unsafe fn view_detached<'a>(&self) -> &'a [T] {
        // SAFETY: the caller keeps the buffer from moving and the first
        // `len` values from changing while the slice lives; `Vec::push`
        // writes through the buffer's raw pointer, not through a reference
        // to the whole buffer.
        unsafe { std::slice::from_raw_parts(self.as_ptr(), Vec::len(self)) }
    }
}

impl<T: Value> Column for Buf<T> {
    fn len(&self) -> usize {
        <[T]>::len(self)
    }
    #[inline]
    fn push(&mut self, v: u32) -> bool {
        if v > T::MAX {
            return false;
        }
        Buf::push(self, T::of(v));
        true
    }
}

impl<T: Value> Store for Buf<T> {
    type View<'a> = &'a [T];
    fn view(&self) -> &[T] {
        self
    }
    fn try_reserve(&mut self, room: usize) -> Result<(), NoRoom> {
        Buf::try_reserve(self, room)
    }
    fn has_room(&self) -> bool {
        <[T]>::len(self) < self.capacity()
    }
    fn copy_range(&self, a: usize, b: usize) -> Buf<T> {
        // A window the engine reads while the block below goes on: memory.
        Buf::Mem(self[a..b].to_vec())
    }
    unsafe fn view_detached<'a>(&self) -> &'a [T] {
        // SAFETY: as for `Vec`: the caller keeps the buffer from moving and
        // the first `len` values from changing while the slice lives; a
        // push writes through the buffer's raw pointer past them.
        unsafe { std::slice::from_raw_parts(self.as_ptr(), <[T]>::len(self)) }
    }
}
