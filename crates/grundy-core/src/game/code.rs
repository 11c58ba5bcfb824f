//! Take-and-break codes in CGSuite's notation.
//!
//! `d0.d1d2…`: digit `dj` says what may happen when `j` tokens are taken from
//! one heap. Bit `k` of the digit set means the rest may be left as exactly
//! `k` non-empty heaps (bit 0: the heap vanishes, which needs `j = n`).
//! Digits are 0–9 and A–Z (base 36, so up to five heaps), a generalised digit
//! lists heap counts in braces (`{2,3}`, `{2+}` for "two or more"), and a
//! modifier after a digit restricts its splits: `!` all heaps pairwise
//! unequal, `?` not all equal, `=` all equal. A bracketed tail repeats
//! forever: `0.[3]` is Nim, `0.[37]` alternates 3 and 7.

use std::fmt;

/// How the heaps produced by one split must relate to each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Modifier {
    Plain,
    /// `!`: pairwise unequal.
    Distinct,
    /// `?`: not all equal.
    NotAllEqual,
    /// `=`: all equal.
    AllEqual,
}

/// One digit: the heap counts a removal of `j` tokens may leave.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Digit {
    /// Bit `k` set: exactly `k` heaps may be left (k < 64).
    pub counts: u64,
    /// `{k+}`: any count of at least `k` heaps is allowed as well.
    pub at_least: Option<u32>,
    pub modifier: Modifier,
}

impl Digit {
    pub const ZERO: Digit = Digit {
        counts: 0,
        at_least: None,
        modifier: Modifier::Plain,
    };

    pub fn is_zero(&self) -> bool {
        self.counts == 0 && self.at_least.is_none()
    }

    pub fn allows(&self, heaps: u32) -> bool {
        (heaps < 64 && self.counts >> heaps & 1 == 1) || self.at_least.is_some_and(|k| heaps >= k)
    }

    /// The digit as CGSuite writes it.
    pub fn cgsuite_text(&self) -> String {
        let base = match self.at_least {
            None if self.counts < 32 => {
                let c = char::from_digit(self.counts as u32, 32).unwrap_or('0');
                c.to_ascii_uppercase().to_string()
            }
            None => format!("&{};", self.counts),
            Some(k) => {
                let mut list: Vec<String> = (0..k.min(64))
                    .filter(|&i| self.allows(i))
                    .map(|i| i.to_string())
                    .collect();
                list.push(format!("{k}+"));
                format!("{{{}}}", list.join(","))
            }
        };
        let modifier = match self.modifier {
            Modifier::Plain => "",
            Modifier::Distinct => "!",
            Modifier::NotAllEqual => "?",
            Modifier::AllEqual => "=",
        };
        format!("{base}{modifier}")
    }

    /// The largest number of heaps this digit can leave (`None`: unbounded).
    pub fn max_heaps(&self) -> Option<u32> {
        if self.at_least.is_some() {
            return None;
        }
        Some(64 - self.counts.leading_zeros()).map(|bits| bits.saturating_sub(1))
    }
}

/// A parsed take-and-break code plus Schrage's minimum difference for splits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Code {
    /// The code as the user wrote it (normalised: no spaces).
    pub text: String,
    /// `d0, d1, …` up to the bracketed tail.
    pub digits: Vec<Digit>,
    /// Digits repeated forever after `digits` (empty: none).
    pub tail: Vec<Digit>,
    /// Splits into two heaps must leave heaps differing by at least this much.
    pub min_diff: u32,
}

/// A code that could not be read: where, and what was expected there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeError {
    pub text: String,
    /// Character index of the offending part.
    pub pos: usize,
    pub message: String,
}

impl fmt::Display for CodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "bad code '{}': {}", self.text, self.message)?;
        writeln!(f, "  {}", self.text)?;
        write!(f, "  {}^", " ".repeat(self.pos))
    }
}

impl std::error::Error for CodeError {}

impl Code {
    /// Parses a code such as `0.07`, `4!.0`, `0.[3]` or `0.{2,3}`.
    pub fn parse(text: &str) -> Result<Code, CodeError> {
        Parser::new(text).code()
    }

    /// The subtraction game with the given set: take `s` tokens for `s` in the set.
    pub fn subtraction(set: &[u32]) -> Result<Code, String> {
        let Some(&largest) = set.iter().max() else {
            return Err("the subtraction set is empty; expected numbers like 1,3,4".into());
        };
        if set.contains(&0) {
            return Err("0 is not a subtraction (a move must take at least 1 token)".into());
        }
        if largest > 4096 {
            return Err(format!(
                "subtraction {largest} is too large; expected at most 4096"
            ));
        }
        let mut text = String::from("0.");
        for j in 1..=largest {
            text.push(if set.contains(&j) { '3' } else { '0' });
        }
        Code::parse(&text).map_err(|e| e.to_string())
    }

    pub fn with_min_diff(mut self, min_diff: u32) -> Code {
        self.min_diff = min_diff;
        self
    }

    /// The digit for removing `j` tokens.
    pub fn digit(&self, j: u64) -> Digit {
        if (j as usize) < self.digits.len() {
            return self.digits[j as usize];
        }
        if self.tail.is_empty() {
            return Digit::ZERO;
        }
        let k = (j - self.digits.len() as u64) % self.tail.len() as u64;
        self.tail[k as usize]
    }

    /// The largest removal (`t` of the periodicity theorem); `None` when the
    /// tail repeats forever.
    pub fn max_removal(&self) -> Option<u64> {
        if self.tail.iter().any(|d| !d.is_zero()) {
            return None;
        }
        Some(self.digits.iter().rposition(|d| !d.is_zero()).unwrap_or(0) as u64)
    }

    /// The largest number of heaps one move can leave (`None`: unbounded).
    pub fn max_heaps(&self) -> Option<u32> {
        self.digits
            .iter()
            .chain(&self.tail)
            .try_fold(0, |acc, d| d.max_heaps().map(|k| acc.max(k)))
    }

    /// Whether some split restricts the sizes of its heaps (`!`, `?`, `=`,
    /// `--min-diff`): the periodicity theorem does not cover such codes.
    pub fn restricts_splits(&self) -> bool {
        self.min_diff > 0
            || self
                .digits
                .iter()
                .chain(&self.tail)
                .any(|d| d.modifier != Modifier::Plain && d.max_heaps().is_none_or(|k| k >= 2))
    }

    /// Every move from one heap of `h`: `visit(take, left)` with the heaps
    /// left, nondecreasing. Gives up (returns false) after `limit` moves, for
    /// codes that may leave very many heaps.
    pub fn for_each_move(&self, h: u64, limit: u64, visit: &mut dyn FnMut(u64, &[u64])) -> bool {
        let mut seen = 0u64;
        let top = self.max_removal().map_or(h, |t| t.min(h));
        for take in 0..=top {
            let d = self.digit(take);
            let m = h - take;
            if d.is_zero() {
                continue;
            }
            let most = match d.max_heaps() {
                Some(k) => (k as u64).min(m),
                None => m,
            };
            // taking nothing must split the heap: leaving it whole is no move
            let least = if take == 0 { 2 } else { 0 };
            for k in least..=most {
                if !d.allows(k as u32) || (k == 0) != (m == 0) {
                    continue;
                }
                let mut heaps = Vec::with_capacity(k as usize);
                let mut ok = true;
                each_partition(m, k, 1, &mut heaps, &mut |left| {
                    if !ok {
                        return;
                    }
                    let all_equal = left.first() == left.last();
                    // modifiers relate the heaps of a split: 0 or 1 heap always fits
                    let fits = match d.modifier {
                        _ if k < 2 => true,
                        Modifier::Plain => true,
                        Modifier::Distinct => left.windows(2).all(|w| w[0] < w[1]),
                        Modifier::NotAllEqual => !all_equal,
                        Modifier::AllEqual => all_equal,
                    } && (k != 2 || left[1] - left[0] >= self.min_diff as u64);
                    if fits {
                        seen += 1;
                        if seen > limit {
                            ok = false;
                            return;
                        }
                        visit(take, left);
                    }
                });
                if !ok {
                    return false;
                }
            }
        }
        true
    }

    /// A display name: the code, plus the minimum difference when set.
    /// The code as CGSuite writes it: digits 0-9 and A-V, `&N;` past
    /// them, `{…}` for lists with "or more", the tail in brackets.
    pub fn cgsuite_text(&self) -> String {
        let digits: String = self.digits[1..].iter().map(Digit::cgsuite_text).collect();
        let tail: String = self.tail.iter().map(Digit::cgsuite_text).collect();
        let d0 = self.digits[0].cgsuite_text();
        match (digits.is_empty(), tail.is_empty()) {
            (true, true) => format!("{d0}.0"),
            (_, true) => format!("{d0}.{digits}"),
            _ => format!("{d0}.{digits}[{tail}]"),
        }
    }

    pub fn name(&self) -> String {
        if self.min_diff > 0 {
            format!("{} (min-diff {})", self.text, self.min_diff)
        } else {
            self.text.clone()
        }
    }
}

/// Calls `f` with every nondecreasing list of `k` heaps of at least `min`
/// summing to `m` (the empty list when `k` = 0 and `m` = 0).
pub(crate) fn each_partition(
    m: u64,
    k: u64,
    min: u64,
    heaps: &mut Vec<u64>,
    f: &mut dyn FnMut(&[u64]),
) {
    match k {
        0 => {
            if m == 0 {
                f(heaps);
            }
        }
        1 => {
            if m >= min {
                heaps.push(m);
                f(heaps);
                heaps.pop();
            }
        }
        _ => {
            let mut h = min;
            while h * k <= m {
                heaps.push(h);
                each_partition(m - h, k - 1, h, heaps, f);
                heaps.pop();
                h += 1;
            }
        }
    }
}

struct Parser<'a> {
    text: &'a str,
    chars: Vec<char>,
    pos: usize,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Self {
        Parser {
            text,
            chars: text.chars().collect(),
            pos: 0,
        }
    }

    fn err<T>(&self, pos: usize, message: impl Into<String>) -> Result<T, CodeError> {
        Err(self.error(pos, message))
    }

    fn error(&self, pos: usize, message: impl Into<String>) -> CodeError {
        CodeError {
            text: self.text.to_string(),
            pos,
            message: message.into(),
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn code(mut self) -> Result<Code, CodeError> {
        if self.chars.is_empty() {
            return self.err(0, "the code is empty; expected something like 0.07 or 4!.0");
        }
        // d0: optional before the point (".07" means d0 = 0).
        let d0_pos = self.pos;
        let d0 = if self.peek() == Some('.') {
            Digit::ZERO
        } else {
            self.digit()?
        };
        if self.peek().is_some_and(|c| c != '.') && self.text.contains('.') {
            return self.err(
                d0_pos,
                "more than one digit before the point: CGSuite's additive digits, moves that add \
                 tokens, are not computed here; expected one digit before the point, as in 4!.0",
            );
        }
        if d0.counts & 0b11 != 0 {
            return self.err(
                d0_pos,
                "d0 may only allow splits into 2 or more heaps (0, 4, 8, C, …); taking no token \
                 and leaving 0 or 1 heap is not a move",
            );
        }
        match self.peek() {
            Some('.') => self.pos += 1,
            Some(c) => {
                return self.err(self.pos, format!("unexpected '{c}'; expected '.' after d0"));
            }
            None => return self.err(self.pos, "missing '.'; expected a code like 0.07"),
        }
        let mut digits = vec![d0];
        let mut tail = Vec::new();
        while let Some(c) = self.peek() {
            if c == '[' {
                let open = self.pos;
                self.pos += 1;
                while self.peek().is_some_and(|c| c != ']') {
                    tail.push(self.digit()?);
                }
                if self.peek() != Some(']') {
                    return self.err(
                        self.pos,
                        "missing ']'; expected the repeating tail to close",
                    );
                }
                if tail.is_empty() {
                    return self.err(open, "empty '[]'; expected digits to repeat, as in 0.[3]");
                }
                self.pos += 1;
                if let Some(c) = self.peek() {
                    return self.err(
                        self.pos,
                        format!("unexpected '{c}' after the repeating tail; expected the end of the code"),
                    );
                }
                break;
            }
            digits.push(self.digit()?);
        }
        Ok(Code {
            text: self.text.to_string(),
            digits,
            tail,
            min_diff: 0,
        })
    }

    /// A digit (0–9, A–Z, or `{…}`) with an optional modifier.
    fn digit(&mut self) -> Result<Digit, CodeError> {
        let start = self.pos;
        let mut digit = match self.peek() {
            Some('{') => self.braces()?,
            Some('&') => self.decimal_digit()?,
            Some('*') => {
                // CGSuite's `*`: any number of heaps, none included.
                self.pos += 1;
                Digit {
                    counts: 0,
                    at_least: Some(0),
                    modifier: Modifier::Plain,
                }
            }
            Some(c) if c.is_ascii_alphanumeric() => {
                self.pos += 1;
                Digit {
                    counts: c.to_digit(36).unwrap_or(0) as u64,
                    at_least: None,
                    modifier: Modifier::Plain,
                }
            }
            Some(c) => {
                return self.err(
                    start,
                    format!(
                        "unexpected '{c}'; expected a digit 0-9 or A-Z, '&N;', '*', or '{{' for a \
                         list of heap counts"
                    ),
                );
            }
            None => return self.err(start, "the code ends early; expected a digit"),
        };
        let Some(modifier) = self.modifier() else {
            return Ok(digit);
        };
        if digit.modifier != Modifier::Plain {
            return self.err(
                self.pos - 1,
                "a modifier both inside and after the braces; expected one of them",
            );
        }
        digit.modifier = modifier;
        if let Some(c @ ('!' | '?' | '=')) = self.peek() {
            return self.err(
                self.pos,
                format!("second modifier '{c}'; a digit takes at most one of ! ? ="),
            );
        }
        Ok(digit)
    }

    /// A modifier (`!`, `?`, `=`) at the cursor, taken.
    fn modifier(&mut self) -> Option<Modifier> {
        let modifier = match self.peek()? {
            '!' => Modifier::Distinct,
            '?' => Modifier::NotAllEqual,
            '=' => Modifier::AllEqual,
            _ => return None,
        };
        self.pos += 1;
        Some(modifier)
    }

    /// CGSuite's `&N;`: a digit given by its value N in decimal (the bit
    /// set of heap counts), for digits past base 36.
    fn decimal_digit(&mut self) -> Result<Digit, CodeError> {
        let start = self.pos;
        self.pos += 1;
        let mut value: u64 = 0;
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            value = value
                .checked_mul(10)
                .and_then(|v| v.checked_add(d as u64))
                .ok_or_else(|| self.error(start, "'&N;' too large; expected N below 2^64"))?;
            self.pos += 1;
        }
        if self.pos == start + 1 || self.peek() != Some(';') {
            return self.err(
                start,
                "expected '&N;', a digit written in decimal, such as &64;",
            );
        }
        self.pos += 1;
        Ok(Digit {
            counts: value,
            at_least: None,
            modifier: Modifier::Plain,
        })
    }

    /// `{2,3}` or `{2+}` or `{0,1,3+}`; a count may carry its own modifier
    /// (`{2!,3!}`) as long as every count of two or more heaps has the same.
    fn braces(&mut self) -> Result<Digit, CodeError> {
        let open = self.pos;
        self.pos += 1;
        let mut digit = Digit::ZERO;
        let mut modifiers: Vec<(usize, Modifier)> = Vec::new();
        loop {
            let num_start = self.pos;
            let mut number: u64 = 0;
            while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
                number = number * 10 + d as u64;
                if number > 63 {
                    return self.err(num_start, "heap count too large; expected at most 63");
                }
                self.pos += 1;
            }
            if self.pos == num_start {
                return self.err(self.pos, "expected a heap count (a number) inside '{…}'");
            }
            let plus = self.peek() == Some('+');
            if plus {
                self.pos += 1;
                let k = number as u32;
                digit.at_least = Some(digit.at_least.map_or(k, |old| old.min(k)));
            } else {
                digit.counts |= 1 << number;
            }
            let at = self.pos;
            match (self.modifier(), number >= 2 || plus) {
                (Some(m), true) => modifiers.push((at, m)),
                // One heap (or none) is all equal and pairwise unequal alike.
                (Some(_), false) | (None, false) => {}
                (None, true) => modifiers.push((at, Modifier::Plain)),
            }
            match self.peek() {
                Some(',') => self.pos += 1,
                Some('}') => {
                    self.pos += 1;
                    break;
                }
                Some(c) => {
                    return self.err(
                        self.pos,
                        format!("unexpected '{c}'; expected ',', '+' or '}}'"),
                    );
                }
                None => return self.err(open, "unclosed '{'; expected '}'"),
            }
        }
        digit.modifier = modifiers.first().map_or(Modifier::Plain, |&(_, m)| m);
        if let Some(&(at, _)) = modifiers.iter().find(|&&(_, m)| m != digit.modifier) {
            return self.err(
                at,
                "different modifiers for different heap counts; expected one rule for every \
                 count of two or more heaps, as in {2!,3!} (the same as {2,3}!)",
            );
        }
        Ok(digit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cgsuite_forms_are_read_and_written() {
        let same = |a: &str, b: &str| {
            let (x, y) = (Code::parse(a).unwrap(), Code::parse(b).unwrap());
            assert_eq!((x.digits, x.tail), (y.digits, y.tail), "{a} vs {b}");
        };
        same("0.&6;", "0.6");
        same("0.&64;", "0.{6}");
        same("0.*", "0.{0+}");
        same("0.{2!,3!}", "0.{2,3}!");
        same("0.{1!,2}", "0.{1,2}");
        for bad in ["14.0", "0.{2!,3}", "0.&;", "0.&1", "0.{2!}!"] {
            assert!(Code::parse(bad).is_err(), "{bad}");
        }
        for (code, cgsuite) in [
            ("4!.0", "4!.0"),
            ("0.W", "0.&32;"),
            ("0.{2+}", "0.{2+}"),
            ("0.[3]", "0.[3]"),
            ("0.{0,1,3+}", "0.{0,1,3+}"),
        ] {
            assert_eq!(Code::parse(code).unwrap().cgsuite_text(), cgsuite);
        }
    }

    #[test]
    fn digits_and_tail() {
        let c = Code::parse("0.[37]").unwrap();
        assert_eq!(c.digit(1).counts, 3);
        assert_eq!(c.digit(2).counts, 7);
        assert_eq!(c.digit(3).counts, 3);
        assert_eq!(c.max_removal(), None);
        let g = Code::parse("4!.0").unwrap();
        assert_eq!(g.digit(0).counts, 4);
        assert_eq!(g.digit(0).modifier, Modifier::Distinct);
        assert_eq!(g.max_heaps(), Some(2));
        assert!(g.restricts_splits());
        assert_eq!(Code::parse("0.07").unwrap().max_removal(), Some(2));
    }
}
