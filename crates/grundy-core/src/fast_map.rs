//! The hash map the memo solvers share (graph and edge games, the sums a
//! misère quotient's search remembers): positions are masks or short
//! lists, hashed by a multiply and a rotate rather than SipHash.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A hasher for vertex masks and keys: a multiply and a rotate per word,
/// where the default SipHash would cost more than the lookup it serves.
#[derive(Default)]
pub struct MaskHasher(u64);

impl Hasher for MaskHasher {
    fn finish(&self) -> u64 {
        // a product's low bits see only the inputs' low bits: fold the high
        // half in, as hash tables index by the low bits
        self.0 ^ (self.0 >> 32)
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    fn write_u8(&mut self, v: u8) {
        self.write_u64(v as u64);
    }
    fn write_u32(&mut self, v: u32) {
        self.write_u64(v as u64);
    }
    fn write_usize(&mut self, v: usize) {
        self.write_u64(v as u64);
    }
}

/// A hash map with a fast multiplicative hasher (keys are not adversarial).
pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<MaskHasher>>;
