//! A table's buffer, in memory or in a file. A run whose table does not
//! fit the memory it may use (`--memory`) keeps its values in a file mapped
//! into memory: the page cache holds what the engines read most (the low
//! heaps, the heaps just below the block being computed) and the kernel
//! writes the rest back to disk, so the run's own memory stays small.
//!
//! The file is unlinked as soon as it is open: it lasts as long as the run
//! and leaves nothing behind however the run ends (kill -9 included). The
//! checkpoint, not this file, is what a run resumes from.

use std::fs::File;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use bytemuck::Pod;
use memmap2::MmapRaw;

/// Where a table's buffers live.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Place {
    #[default]
    Memory,
    /// Files in this folder, memory-mapped.
    Folder(PathBuf),
}

impl Place {
    /// The folder of `path` (a run's `--checkpoint` or `--out`), `.` for a
    /// bare file name.
    pub fn beside(path: &Path) -> Place {
        match path.parent() {
            Some(folder) if !folder.as_os_str().is_empty() => Place::Folder(folder.to_path_buf()),
            _ => Place::Folder(PathBuf::from(".")),
        }
    }
}

/// A buffer could not grow: memory, or room in its file's folder.
#[derive(Debug)]
pub struct NoRoom;

/// Values in a `Vec`, in a memory-mapped file, or in memory reserved for
/// a whole run of which only a prefix and a window are kept.
pub enum Buf<T> {
    Mem(Vec<T>),
    File(Mapped<T>),
    Sparse(Sparse<T>),
}

impl<T: Pod> Default for Buf<T> {
    fn default() -> Buf<T> {
        Buf::Mem(Vec::new())
    }
}

impl<T: Pod> Buf<T> {
    /// An empty buffer at `place`.
    pub fn new_in(place: &Place) -> std::io::Result<Buf<T>> {
        Ok(match place {
            Place::Memory => Buf::Mem(Vec::new()),
            Place::Folder(folder) => Buf::File(Mapped::create(folder)?),
        })
    }

    /// `values` at `place`.
    pub fn of(values: Vec<T>, place: &Place) -> std::io::Result<Buf<T>> {
        if *place == Place::Memory {
            return Ok(Buf::Mem(values));
        }
        let mut buf = Buf::new_in(place)?;
        buf.extend_from_slice(&values)?;
        Ok(buf)
    }

    /// Where the buffer lives (a new buffer made there joins it). A sparse
    /// buffer's table never widens (it is made two bytes a value) nor moves.
    pub fn place(&self) -> Place {
        match self {
            Buf::Mem(_) | Buf::Sparse(_) => Place::Memory,
            Buf::File(m) => Place::Folder(m.folder.clone()),
        }
    }

    pub fn capacity(&self) -> usize {
        match self {
            Buf::Mem(v) => v.capacity(),
            Buf::File(m) => m.cap,
            Buf::Sparse(m) => m.cap,
        }
    }

    /// Room for `room` more values, so that pushing them moves nothing.
    pub fn try_reserve(&mut self, room: usize) -> Result<(), NoRoom> {
        match self {
            Buf::Mem(v) => {
                grundy_core::interrupt::fallible(|| v.try_reserve(room)).map_err(|_| NoRoom)
            }
            Buf::File(m) => m.reserve(room).map_err(|_| NoRoom),
            Buf::Sparse(m) => match m.len.checked_add(room) {
                Some(need) if need <= m.cap => Ok(()),
                _ => Err(NoRoom),
            },
        }
    }

    /// Appends `v`, growing the buffer when it is full (a file that cannot
    /// grow ends the run as a failed allocation does).
    #[inline]
    pub fn push(&mut self, v: T) {
        match self {
            Buf::Mem(vec) => vec.push(v),
            Buf::File(m) => {
                if m.len == m.cap && m.reserve(1).is_err() {
                    grundy_core::interrupt::out_of_disk(&m.folder);
                }
                m.write(&[v]);
            }
            Buf::Sparse(m) => m.write(&[v]),
        }
    }

    pub fn extend_from_slice(&mut self, values: &[T]) -> std::io::Result<()> {
        match self {
            Buf::Mem(v) => v.extend_from_slice(values),
            Buf::File(m) => {
                m.reserve(values.len())?;
                m.write(values);
            }
            Buf::Sparse(m) => {
                if m.len + values.len() > m.cap {
                    return Err(std::io::Error::from(std::io::ErrorKind::OutOfMemory));
                }
                m.write(values);
            }
        }
        Ok(())
    }

    pub fn truncate(&mut self, len: usize) {
        match self {
            Buf::Mem(v) => v.truncate(len),
            Buf::File(m) => m.len = m.len.min(len),
            Buf::Sparse(m) => m.len = m.len.min(len),
        }
    }

    pub fn as_ptr(&self) -> *const T {
        self.as_slice().as_ptr()
    }

    pub fn as_slice(&self) -> &[T] {
        match self {
            Buf::Mem(v) => v,
            Buf::File(m) => m.in_use(),
            Buf::Sparse(m) => m.in_use(),
        }
    }

    /// A buffer for `cap` values of which only some will be kept: memory
    /// is reserved, not taken, and values given back with `forget` read
    /// as zeros after.
    pub fn sparse(cap: usize) -> std::io::Result<Buf<T>> {
        Sparse::reserve(cap).map(Buf::Sparse)
    }

    /// Moves a sparse buffer's end to `len` without writing the values
    /// between (they read as zeros): a run resumed past the heaps it gave
    /// back. False for other buffers, and past the reservation.
    pub fn skip_to(&mut self, len: usize) -> bool {
        match self {
            Buf::Sparse(m) if m.len <= len && len <= m.cap => {
                m.len = len;
                true
            }
            _ => false,
        }
    }

    /// Writes `values` over values `at..` of a sparse buffer, below its
    /// end (values given back, wanted again); false for other buffers.
    pub fn put(&mut self, at: usize, values: &[T]) -> bool {
        match self {
            Buf::Sparse(m) if at + values.len() <= m.len => {
                m.put(at, values);
                true
            }
            _ => false,
        }
    }

    /// Gives back the memory of values a..b (the whole pages inside), which
    /// read as zeros after; nothing for other buffers.
    pub fn forget(&mut self, a: usize, b: usize) {
        if let Buf::Sparse(m) = self {
            m.forget(a, b.min(m.len));
        }
    }
}

impl<T> From<Vec<T>> for Buf<T> {
    fn from(values: Vec<T>) -> Buf<T> {
        Buf::Mem(values)
    }
}

impl<T: Pod> std::ops::Deref for Buf<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T: Pod> Clone for Buf<T> {
    fn clone(&self) -> Buf<T> {
        // A copy of a file-backed table goes to a file beside it; where
        // none can be made, to memory.
        Buf::of(self.to_vec(), &self.place()).unwrap_or_else(|_| Buf::Mem(self.to_vec()))
    }
}

impl<T: Pod + std::fmt::Debug> std::fmt::Debug for Buf<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<T: Pod + PartialEq> PartialEq for Buf<T> {
    fn eq(&self, other: &Buf<T>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Pod + Eq> Eq for Buf<T> {}

/// Values in a file mapped into memory, `cap` of them mapped, the first
/// `len` in use.
pub struct Mapped<T> {
    file: File,
    /// Read and written through raw pointers only, so that values pushed
    /// past `len` never alias a slice of the values before it (other
    /// threads read those while a block is finished).
    map: Option<MmapRaw>,
    len: usize,
    cap: usize,
    folder: PathBuf,
    values: PhantomData<T>,
}

/// The least a file-backed buffer grows by, in bytes (growing remaps it).
const MIN_GROWTH: usize = 64 << 20;

impl<T: Pod> Mapped<T> {
    fn create(folder: &Path) -> std::io::Result<Mapped<T>> {
        let file = tempfile_in(folder)?;
        Ok(Mapped {
            file,
            map: None,
            len: 0,
            cap: 0,
            folder: folder.to_path_buf(),
            values: PhantomData,
        })
    }

    /// Room for `room` more values: the file grows with its blocks on the
    /// disk reserved, and is mapped again. (A sparse file would take its
    /// blocks when a value is first written into the mapping, and a full
    /// disk there is a bus error that kills the process.) When the disk
    /// has no room for the doubled size, it grows by what is needed alone.
    fn reserve(&mut self, room: usize) -> std::io::Result<()> {
        let need = self.len.checked_add(room).ok_or_else(too_large)?;
        if need <= self.cap {
            return Ok(());
        }
        let size = std::mem::size_of::<T>();
        let doubled = need.max(2 * self.cap).max(MIN_GROWTH / size);
        let cap = match self.grow_to(doubled) {
            Ok(()) => doubled,
            Err(_) => self.grow_to(need).map(|()| need)?,
        };
        self.map = Some(MmapRaw::map_raw(&self.file)?);
        self.cap = cap;
        Ok(())
    }

    /// Makes the file `cap` values long, every block of it on the disk.
    fn grow_to(&self, cap: usize) -> std::io::Result<()> {
        let size = std::mem::size_of::<T>();
        let bytes = cap.checked_mul(size).ok_or_else(too_large)? as u64;
        let had = (self.cap * size) as u64;
        if bytes > disk_room() {
            return Err(std::io::Error::from_raw_os_error(libc::ENOSPC));
        }
        #[cfg(target_os = "linux")]
        {
            use std::os::fd::AsRawFd;
            let (at, len) = (had as libc::off_t, (bytes - had) as libc::off_t);
            // SAFETY: a valid open descriptor; the call only allocates.
            match unsafe { libc::posix_fallocate(self.file.as_raw_fd(), at, len) } {
                0 => Ok(()),
                code => Err(std::io::Error::from_raw_os_error(code)),
            }
        }
        #[cfg(not(target_os = "linux"))]
        {
            let _ = had;
            self.file.set_len(bytes)
        }
    }

    /// The values in use.
    fn in_use(&self) -> &[T] {
        match &self.map {
            // SAFETY: the mapping holds `cap` values (at least `len`), is
            // page-aligned and lives as long as `self`; the file is this
            // process's alone (unlinked when made) and never shrinks while
            // mapped; every byte pattern is a value of T (Pod).
            Some(map) => unsafe { std::slice::from_raw_parts(map.as_ptr().cast::<T>(), self.len) },
            None => &[],
        }
    }

    /// Appends `values`, which the room reserved holds.
    fn write(&mut self, values: &[T]) {
        assert!(self.len + values.len() <= self.cap, "room was reserved");
        let map = self.map.as_ref().expect("a mapping once room is reserved");
        // SAFETY: the destination lies inside the mapping (asserted) and
        // past every value in use, which no slice lent out covers.
        unsafe {
            let at = map.as_mut_ptr().cast::<T>().add(self.len);
            std::ptr::copy_nonoverlapping(values.as_ptr(), at, values.len());
        }
        self.len += values.len();
    }
}

/// Values in anonymous memory reserved for `cap` of them and taken only
/// where written: a run that keeps a prefix and a window of its table gives
/// the pages between them back (`forget`).
pub struct Sparse<T> {
    /// Read and written through raw pointers only, as `Mapped`'s.
    map: MmapRaw,
    len: usize,
    cap: usize,
    values: PhantomData<T>,
}

impl<T: Pod> Sparse<T> {
    fn reserve(cap: usize) -> std::io::Result<Sparse<T>> {
        let bytes = cap.max(1).checked_mul(std::mem::size_of::<T>());
        let map = memmap2::MmapOptions::new()
            .len(bytes.ok_or_else(too_large)?)
            .no_reserve_swap()
            .map_anon()?;
        Ok(Sparse {
            map: MmapRaw::from(map),
            len: 0,
            cap,
            values: PhantomData,
        })
    }

    fn in_use(&self) -> &[T] {
        // SAFETY: the mapping holds `cap` values (at least `len`), is
        // page-aligned, lives as long as `self` and is this buffer's alone;
        // every byte pattern is a value of T (Pod), zeros included.
        unsafe { std::slice::from_raw_parts(self.map.as_ptr().cast::<T>(), self.len) }
    }

    /// Appends `values`, which must fit the reservation.
    fn write(&mut self, values: &[T]) {
        assert!(
            self.len + values.len() <= self.cap,
            "a sparse buffer is never grown"
        );
        // SAFETY: as `Mapped::write`: inside the mapping, past every value
        // a slice lent out covers.
        unsafe {
            let at = self.map.as_mut_ptr().cast::<T>().add(self.len);
            std::ptr::copy_nonoverlapping(values.as_ptr(), at, values.len());
        }
        self.len += values.len();
    }

    /// Writes `values` over heaps `at..` (below the end).
    fn put(&mut self, at: usize, values: &[T]) {
        assert!(at + values.len() <= self.len, "values put past the end");
        // SAFETY: inside the mapping (below `len`), and `&mut self` means
        // no slice of it is lent out.
        unsafe {
            let to = self.map.as_mut_ptr().cast::<T>().add(at);
            std::ptr::copy_nonoverlapping(values.as_ptr(), to, values.len());
        }
    }

    fn forget(&mut self, a: usize, b: usize) {
        let size = std::mem::size_of::<T>();
        let page = page_size();
        let from = (a * size).div_ceil(page) * page;
        let to = (b * size) / page * page;
        if from < to {
            // SAFETY: the range lies inside the mapping. Private anonymous
            // pages given back read as zeros after: a thread reading them
            // meanwhile reads a value or a zero, never freed memory, and
            // the run never keeps a value read there (`rare::kept`).
            let _ = unsafe {
                self.map
                    .unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, from, to - from)
            };
        }
    }
}

fn page_size() -> usize {
    // SAFETY: sysconf has no preconditions.
    let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    usize::try_from(size).unwrap_or(4096).max(1)
}

fn too_large() -> std::io::Error {
    std::io::Error::other("a table larger than the address space")
}

/// A new file in `folder`, already unlinked.
fn tempfile_in(folder: &Path) -> std::io::Result<File> {
    static MADE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let k = MADE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = folder.join(format!(".grundy-table-{}-{k}", std::process::id()));
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(&path)?;
    std::fs::remove_file(&path)?;
    Ok(file)
}

/// `GRUNDY_FAIL_TABLE_FILE_OVER=BYTES`: a table's file cannot grow past
/// BYTES, as on a full disk, so that tests reach that path (read once).
fn disk_room() -> u64 {
    static ROOM: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *ROOM.get_or_init(|| grundy_core::fault::table_file_over().unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_backed_buffer_holds_what_a_vec_does() {
        let folder = std::env::temp_dir();
        let place = Place::Folder(folder.clone());
        let mut file: Buf<u16> = Buf::new_in(&place).unwrap();
        let mut vec = Vec::new();
        for v in 0..100_000u32 {
            let v = (v * 7919 % 65_521) as u16;
            file.push(v);
            vec.push(v);
        }
        assert_eq!(file.as_slice(), vec.as_slice());
        file.extend_from_slice(&[1, 2, 3]).unwrap();
        file.truncate(100_001);
        assert_eq!(file[100_000], 1);
        assert_eq!(file.len(), 100_001);
        assert_eq!(file.place(), place);
        // The file was unlinked when made: nothing of it is left in the folder.
        let left = std::fs::read_dir(&folder)
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| {
                let name = e.file_name().to_string_lossy().to_string();
                name.starts_with(&format!(".grundy-table-{}-", std::process::id()))
            })
            .count();
        assert_eq!(left, 0);
        // Room reserved is room: the buffer does not move while it is filled.
        file.try_reserve(1 << 20).unwrap();
        let at = file.as_ptr();
        for _ in 0..1 << 20 {
            file.push(9);
        }
        assert_eq!(file.as_ptr(), at);
    }

    /// The file's blocks are on the disk as soon as room is reserved (a
    /// sparse file would take them when the mapping is first written,
    /// where a full disk is a bus error): the disk's use covers the length.
    #[cfg(target_os = "linux")]
    #[test]
    fn room_reserved_in_a_file_is_room_on_the_disk() {
        use std::os::unix::fs::MetadataExt;
        let place = Place::Folder(std::env::temp_dir());
        let mut buf: Buf<u16> = Buf::new_in(&place).unwrap();
        buf.try_reserve(3 << 20).unwrap();
        let Buf::File(mapped) = &buf else {
            panic!("a folder's buffer is a file");
        };
        let meta = mapped.file.metadata().unwrap();
        assert!(meta.len() >= (3 << 20) * 2, "{} bytes", meta.len());
        assert!(
            meta.blocks() * 512 >= meta.len(),
            "{} bytes on the disk for a file of {}",
            meta.blocks() * 512,
            meta.len()
        );
    }
}
