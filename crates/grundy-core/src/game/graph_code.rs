//! Octal codes played on graphs (Dailly, Octal games on graphs, Definition 22): digit `d_i` says
//! whether a connected set of `i` vertices may be removed from a component,
//! bit `j` of it allowing that component to be left in exactly `j` pieces.

use super::code::{Code, Modifier};
use super::convention::Convention;
use crate::setting::Setting;

/// A graph octal code: digits 0–7 after `0.`, no modifiers, no tail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphCode {
    pub text: String,
    /// `digits[i]` for removing `i` vertices (`digits[0]` is 0).
    pub digits: Vec<u8>,
    /// Normal play (parsed codes) or misère play (`under`).
    pub convention: Convention,
}

impl GraphCode {
    /// Parses `0.33`, `0.03`, `0.137`…; the error names the bad part.
    pub fn parse(text: &str) -> Result<GraphCode, String> {
        let code = Code::parse(text).map_err(|e| e.to_string())?;
        let bad = |what: String| {
            format!(
                "bad graph code '{text}': {what}; graph games take octal codes like 0.33 or 0.137"
            )
        };
        if !code.digits[0].is_zero() {
            return Err(bad("the digit before the point must be 0".into()));
        }
        if !code.tail.is_empty() {
            return Err(bad(
                "a repeating tail [..] has no meaning on a finite graph".into(),
            ));
        }
        if code.min_diff > 0 {
            return Err(bad(format!(
                "{} applies to heaps only",
                Setting::MinDiff.named()
            )));
        }
        let mut digits = vec![0u8];
        for (i, d) in code.digits.iter().enumerate().skip(1) {
            if d.modifier != Modifier::Plain || d.at_least.is_some() || d.counts > 7 {
                return Err(bad(format!(
                    "digit {i} is not an octal digit 0-7 (a removal may leave 0, 1 or 2 pieces)"
                )));
            }
            digits.push(d.counts as u8);
        }
        while digits.len() > 1 && digits[digits.len() - 1] == 0 {
            digits.pop();
        }
        if digits.len() == 1 {
            return Err(bad("every digit is 0, so no move exists".into()));
        }
        if digits.len() > 65 {
            return Err(bad(format!(
                "it removes up to {} vertices; a graph has at most 64",
                digits.len() - 1
            )));
        }
        Ok(GraphCode {
            text: code.text,
            digits,
            convention: Convention::Normal,
        })
    }

    /// The same code under `convention`.
    pub fn under(mut self, convention: Convention) -> GraphCode {
        self.convention = convention;
        self
    }

    /// Whether a move may leave a component in two pieces: where none
    /// may, a connected graph reaches connected positions only, and
    /// misère play needs no value of a sum.
    pub fn splits(&self) -> bool {
        self.digits.iter().any(|d| d & 4 != 0)
    }

    /// The most vertices one move removes.
    pub fn max_take(&self) -> usize {
        self.digits.len() - 1
    }

    /// Whether removing `i` vertices may leave `pieces` components.
    pub fn allows(&self, i: usize, pieces: u32) -> bool {
        pieces < 3 && self.digits.get(i).is_some_and(|d| d >> pieces & 1 == 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_octal_codes() {
        let c = GraphCode::parse("0.33").unwrap();
        assert_eq!(c.digits, vec![0, 3, 3]);
        assert!(c.allows(2, 1) && c.allows(1, 0) && !c.allows(1, 2));
        assert_eq!(GraphCode::parse("0.0370").unwrap().max_take(), 3);
        for bad in ["4.07", "0.[3]", "0.8", "0.3!", "0.00", "0.{2+}"] {
            assert!(GraphCode::parse(bad).is_err(), "{bad}");
        }
    }
}
