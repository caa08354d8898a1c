//! Work shared out between threads, one way for every crate of skinlab: the skinning job,
//! building a big mesh, laying it out for the GPU, measuring where it is drawn, and the
//! samples of a curve that each take a pass over a mesh ([`run_each`]).
//!
//! Work is anything that can be cut in two at an index ([`Split`]): a slice, a range of
//! indices, or several of them side by side as a tuple, cut at the same place. Threads
//! take pieces from the front until none are left, so a thread whose core is busy
//! with something else does less of the work instead of holding up the rest. Small work
//! (few items, each quick) stays on the calling thread, and the web build (one thread)
//! always does.

#![warn(missing_docs)]

/// Work that can be cut at an index: `(first, rest)` with `first.len() == at`.
pub trait Split: Sized + Send {
    /// How many items are left.
    fn len(&self) -> usize;
    /// Whether no items are left.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The first `at` items and the rest.
    fn split_at(self, at: usize) -> (Self, Self);
}

impl<T: Send> Split for &mut [T] {
    fn len(&self) -> usize {
        <[T]>::len(self)
    }
    fn split_at(self, at: usize) -> (Self, Self) {
        self.split_at_mut(at.min(<[T]>::len(self)))
    }
}

impl<T: Sync> Split for &[T] {
    fn len(&self) -> usize {
        <[T]>::len(self)
    }
    fn split_at(self, at: usize) -> (Self, Self) {
        <[T]>::split_at(self, at.min(<[T]>::len(self)))
    }
}

/// The indices of the items, for work that needs to know where it is.
impl Split for std::ops::Range<usize> {
    fn len(&self) -> usize {
        ExactSizeIterator::len(self)
    }
    fn split_at(self, at: usize) -> (Self, Self) {
        let mid = self.start + at.min(ExactSizeIterator::len(&self));
        (self.start..mid, mid..self.end)
    }
}

/// Bytes read as records of one size chosen at run time (a vertex layout that depends
/// on the mesh): an item is a record, and a cut falls between records.
pub struct Records<'a> {
    bytes: &'a mut [u8],
    size: usize,
}

impl<'a> Records<'a> {
    /// `bytes` as records of `size` bytes (at least 1); a short tail is not a record.
    pub fn new(bytes: &'a mut [u8], size: usize) -> Self {
        let size = size.max(1);
        let whole = bytes.len() / size * size;
        Self {
            bytes: &mut bytes[..whole],
            size,
        }
    }

    /// Each record in turn.
    pub fn iter_mut(&mut self) -> std::slice::ChunksExactMut<'_, u8> {
        self.bytes.chunks_exact_mut(self.size)
    }
}

impl Split for Records<'_> {
    fn len(&self) -> usize {
        self.bytes.len() / self.size
    }
    fn split_at(self, at: usize) -> (Self, Self) {
        let size = self.size;
        let cut = (at * size).min(self.bytes.len());
        let (first, rest) = self.bytes.split_at_mut(cut);
        (Self { bytes: first, size }, Self { bytes: rest, size })
    }
}

/// Several lists side by side, one item of each per index; the first one's length is
/// the work's.
macro_rules! split_tuple {
    ($($name:ident),+) => {
        impl<$($name: Split),+> Split for ($($name,)+) {
            fn len(&self) -> usize {
                self.0.len()
            }
            #[allow(non_snake_case)]
            fn split_at(self, at: usize) -> (Self, Self) {
                let ($($name,)+) = self;
                $(let $name = $name.split_at(at);)+
                (($($name.0,)+), ($($name.1,)+))
            }
        }
    };
}
split_tuple!(A, B);
split_tuple!(A, B, C);
split_tuple!(A, B, C, D);
split_tuple!(A, B, C, D, E);

/// Items a thread should have at least: below this, starting and joining it costs
/// about as much as the work it takes over (measured for skinning: some 50 µs on a busy
/// two-core machine, against 3 to 5 ns per vertex).
#[cfg(not(target_arch = "wasm32"))]
pub const MIN_ITEMS_PER_THREAD: usize = 16 * 1024;

/// Pieces per thread (see the module's notes).
#[cfg(not(target_arch = "wasm32"))]
const PIECES_PER_THREAD: usize = 8;

/// How many threads to use for `items` items when `asked` are asked for (0: one per
/// core): fewer for small work, one on the web.
pub fn thread_count(asked: usize, items: usize) -> usize {
    #[cfg(target_arch = "wasm32")]
    {
        let _ = (asked, items);
        1
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let asked = if asked == 0 { cores() } else { asked };
        asked.min(items / MIN_ITEMS_PER_THREAD).max(1)
    }
}

/// The cores this process may use, asked once: the answer reads the system's CPU quota,
/// which costs tens of microseconds, as long as skinning a few thousand vertices.
#[cfg(not(target_arch = "wasm32"))]
fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// `n` zeroes, in memory the system zeroes when it is first touched (a big allocation
/// is fresh pages): a vector filled by [`run`] then has its pages faulted in by the
/// threads that fill them, not all by this one beforehand, as `vec![x; n]` would.
pub fn zeroed<T: bytemuck::Zeroable>(n: usize) -> Vec<T> {
    bytemuck::zeroed_vec(n)
}

/// Runs `work` over every piece of `all` on one thread per core (fewer for small
/// work): see [`run_on`].
pub fn run<P: Split>(all: P, work: impl Fn(P) + Sync) {
    let threads = thread_count(0, all.len());
    run_on(all, threads, 1, work);
}

/// Runs `work` over every piece of `all` (as [`run`]) and folds what the pieces give
/// with `merge`, in whatever order they finish: `merge` must not care which comes first
/// (a least, a sum). Some always: even empty work is one piece.
pub fn reduce<P: Split, R: Send>(
    all: P,
    work: impl Fn(P) -> R + Sync,
    merge: impl Fn(R, R) -> R + Sync,
) -> Option<R> {
    use std::sync::{Mutex, PoisonError};
    let folded = Mutex::new(None::<R>);
    run(all, |piece| {
        let mine = work(piece);
        let mut folded = folded.lock().unwrap_or_else(PoisonError::into_inner);
        *folded = Some(match folded.take() {
            Some(theirs) => merge(theirs, mine),
            None => mine,
        });
    });
    folded.into_inner().unwrap_or_else(PoisonError::into_inner)
}

/// The least of what `work` finds in the pieces of `all`, whichever thread found it:
/// with the vertex first in `T`, the first vertex a check refuses.
pub fn least<P: Split, T: Ord + Send>(all: P, work: impl Fn(P) -> Option<T> + Sync) -> Option<T> {
    reduce(all, work, |a, b| a.into_iter().chain(b).min()).flatten()
}

/// Runs `work` over pieces of `all` on `threads` threads (this one among them), each
/// piece a multiple of `multiple` items long but the last. Every item is in exactly one
/// piece; which thread takes it depends on timing.
pub fn run_on<P: Split>(all: P, threads: usize, multiple: usize, work: impl Fn(P) + Sync) {
    #[cfg(not(target_arch = "wasm32"))]
    let piece = (all.len() / (threads.max(1) * PIECES_PER_THREAD))
        .max(MIN_ITEMS_PER_THREAD / PIECES_PER_THREAD)
        .next_multiple_of(multiple.max(1));
    #[cfg(target_arch = "wasm32")]
    let piece = multiple;
    run_pieces(all, threads, piece, work);
}

/// Runs `work` over each item of `all` on its own, one thread per core (as many as there
/// are items): for a few items that each take long, such as the samples of a curve,
/// each a pass over a whole mesh.
pub fn run_each<P: Split>(all: P, work: impl Fn(P) + Sync) {
    let threads = thread_count(0, usize::MAX).min(all.len());
    run_pieces(all, threads, 1, work);
}

/// Runs `work` over pieces of `piece` items of `all` (the last may be shorter), taken
/// from the front by `threads` threads (this one among them).
fn run_pieces<P: Split>(all: P, threads: usize, piece: usize, work: impl Fn(P) + Sync) {
    #[cfg(not(target_arch = "wasm32"))]
    if threads > 1 {
        use std::sync::{Mutex, PoisonError};
        let piece = piece.max(1);
        let rest = Mutex::new(Some(all));
        let take = || {
            loop {
                let next = {
                    // A panic elsewhere cannot leave the pieces half taken: take them anyway.
                    let mut rest = rest.lock().unwrap_or_else(PoisonError::into_inner);
                    match rest.take() {
                        Some(left) if left.len() > piece => {
                            let (next, tail) = left.split_at(piece);
                            *rest = Some(tail);
                            next
                        }
                        Some(left) => left,
                        None => break,
                    }
                };
                work(next);
            }
        };
        std::thread::scope(|scope| {
            for _ in 1..threads {
                scope.spawn(take);
            }
            take();
        });
        return;
    }
    let _ = (threads, piece);
    work(all);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_item_is_worked_once_whatever_the_thread_count() {
        for threads in [1, 2, 3, 7] {
            let n = 100_003;
            let mut out = vec![0u32; n];
            let mut seen = vec![0u8; n];
            run_on(
                (0..n, out.as_mut_slice(), seen.as_mut_slice()),
                threads,
                8,
                |(range, out, seen)| {
                    assert_eq!(range.end - range.start, out.len());
                    for ((i, o), s) in range.zip(out.iter_mut()).zip(seen.iter_mut()) {
                        *o = i as u32 * 3;
                        *s += 1;
                    }
                },
            );
            assert!(seen.iter().all(|&s| s == 1), "{threads} threads");
            assert!(out.iter().enumerate().all(|(i, &o)| o == i as u32 * 3));
        }
    }

    #[test]
    fn records_of_a_size_chosen_at_run_time_are_each_written_once() {
        for (size, threads) in [(5, 1), (48, 3), (60, 7)] {
            let n = 50_001;
            // A short tail that is not a record stays as it was.
            let mut bytes = vec![0u8; n * size + size - 1];
            let records = Records::new(&mut bytes, size);
            assert_eq!(records.len(), n);
            run_on((0..n, records), threads, 1, |(range, mut records)| {
                assert_eq!(range.end - range.start, records.len());
                for (i, record) in range.zip(records.iter_mut()) {
                    assert_eq!(record.len(), size);
                    record[0] = record[0].wrapping_add(1);
                    record[size - 1] = (i % 251) as u8;
                }
            });
            for (i, record) in bytes.chunks(size).take(n).enumerate() {
                assert_eq!(record[0], 1, "record {i} of {size} bytes written once");
                assert_eq!(record[size - 1], (i % 251) as u8, "record {i} in its place");
            }
            assert!(
                bytes[n * size..].iter().all(|&b| b == 0),
                "the tail untouched"
            );
        }
    }

    #[test]
    fn each_of_a_few_items_is_worked_once_by_itself() {
        let n = 41;
        let mut out = vec![0usize; n];
        let pieces = std::sync::Mutex::new(Vec::new());
        run_each((0..n, out.as_mut_slice()), |(range, out)| {
            pieces.lock().unwrap().push(range.end - range.start);
            for (i, o) in range.zip(out.iter_mut()) {
                *o += i + 1;
            }
        });
        assert!(out.iter().enumerate().all(|(i, &o)| o == i + 1), "{out:?}");
        let pieces = pieces.into_inner().unwrap();
        assert_eq!(pieces.iter().sum::<usize>(), n);
        if thread_count(0, usize::MAX) > 1 {
            assert!(
                pieces.iter().all(|&len| len == 1),
                "one item a piece: {pieces:?}"
            );
        }
    }

    #[test]
    fn the_least_found_is_the_first_whichever_piece_finds_it() {
        let n = 200_000;
        let bad = |i: usize| i % 70_001 == 70_000;
        let first = least(0..n, |range| range.clone().find(|&i| bad(i)));
        assert_eq!(first, Some(70_000));
        assert_eq!(least(0..n, |_| None::<usize>), None);
        let sum = reduce(0..n, |range| range.end - range.start, |a, b| a + b);
        assert_eq!(sum, Some(n));
    }

    #[test]
    fn pieces_start_at_multiples_asked() {
        let starts = std::sync::Mutex::new(Vec::new());
        run_on(0..200_000, 4, 8, |range| {
            starts.lock().unwrap().push(range.start);
        });
        let starts = starts.into_inner().unwrap();
        assert!(starts.len() > 1);
        assert!(starts.iter().all(|s| s % 8 == 0), "{starts:?}");
    }

    #[test]
    fn a_tuple_splits_each_list_at_the_same_index() {
        let a = [1, 2, 3, 4];
        let mut b = [5, 6, 7, 8];
        let ((a0, b0), (a1, b1)) = Split::split_at((&a[..], &mut b[..]), 3);
        assert_eq!(
            (a0, &*b0, a1, &*b1),
            (&[1, 2, 3][..], &[5, 6, 7][..], &[4][..], &[8][..])
        );
        let (r0, r1) = (2..10).split_at(20);
        assert_eq!((r0, r1), (2..10, 10..10));
    }
}
