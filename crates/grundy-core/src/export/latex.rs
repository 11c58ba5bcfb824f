//! Tables as LaTeX a paper can `\input`: a `tabular` (no package needed),
//! made from the CSV a command writes. A table of G over two coordinates
//! (`a,b,g`) becomes a matrix, rows by the first and columns by the second,
//! as the papers print them; any other table is one row per CSV row.

use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Matrices wider than this many columns are written one row per entry.
const MAX_MATRIX_COLUMNS: usize = 40;

/// Text with LaTeX's special characters escaped.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' | '%' | '$' | '#' | '_' | '{' | '}' => {
                out.push('\\');
                out.push(c);
            }
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            '\\' => out.push_str("\\textbackslash{}"),
            _ => out.push(c),
        }
    }
    out
}

/// The CSV text `csv` (header line first) as a tabular, under a comment
/// line saying what it is.
pub fn from_csv(csv: &[u8], what: &str) -> Result<String, String> {
    let mut reader = csv::Reader::from_reader(csv);
    let header: Vec<String> = reader
        .headers()
        .map_err(|e| e.to_string())?
        .iter()
        .map(String::from)
        .collect();
    let rows: Vec<Vec<String>> = reader
        .records()
        .map(|r| r.map(|r| r.iter().map(String::from).collect()))
        .collect::<Result<_, _>>()
        .map_err(|e| e.to_string())?;
    let body = matrix(&header, &rows).unwrap_or_else(|| long_table(&header, &rows));
    Ok(format!("% grundy: {}\n{body}", what.replace('\n', " ")))
}

/// One row per CSV row, the header in the first.
fn long_table(header: &[String], rows: &[Vec<String>]) -> String {
    let mut out = format!(
        "\\begin{{tabular}}{{{}}}\n\\hline\n",
        "r".repeat(header.len())
    );
    let cells = |row: &[String]| {
        row.iter()
            .map(|c| escape(c))
            .collect::<Vec<_>>()
            .join(" & ")
    };
    let _ = writeln!(out, "{} \\\\\n\\hline", cells(header));
    for row in rows {
        let _ = writeln!(out, "{} \\\\", cells(row));
    }
    out.push_str("\\hline\n\\end{tabular}\n");
    out
}

/// `a,b,g` with whole-number coordinates as a matrix (`None` when the
/// table has another shape or too many columns).
fn matrix(header: &[String], rows: &[Vec<String>]) -> Option<String> {
    if header.len() != 3 || header[2] != "g" || rows.is_empty() {
        return None;
    }
    let mut cells: BTreeMap<(u64, u64), &str> = BTreeMap::new();
    for row in rows {
        let (a, b) = (row[0].parse().ok()?, row[1].parse().ok()?);
        cells.insert((a, b), &row[2]);
    }
    let mut columns: Vec<u64> = cells.keys().map(|&(_, b)| b).collect();
    columns.sort_unstable();
    columns.dedup();
    if columns.len() > MAX_MATRIX_COLUMNS {
        return None;
    }
    let mut out = format!(
        "\\begin{{tabular}}{{r|{}}}\n{}$\\backslash${}",
        "r".repeat(columns.len()),
        escape(&header[0]),
        escape(&header[1])
    );
    for b in &columns {
        let _ = write!(out, " & {b}");
    }
    out.push_str(" \\\\\n\\hline\n");
    let mut row_keys: Vec<u64> = cells.keys().map(|&(a, _)| a).collect();
    row_keys.dedup();
    for a in row_keys {
        let _ = write!(out, "{a}");
        for b in &columns {
            let _ = write!(out, " & {}", cells.get(&(a, *b)).copied().unwrap_or(""));
        }
        out.push_str(" \\\\\n");
    }
    out.push_str("\\end{tabular}\n");
    Some(out)
}

/// The start of a Nim-sequence in rows of ten: `n` and G(n) … G(n + 9).
pub fn sequence_header(what: &str) -> String {
    let mut out = format!(
        "% grundy: {}\n\\begin{{tabular}}{{r|rrrrrrrrrr}}\n$n$",
        what.replace('\n', " ")
    );
    for k in 0..10 {
        let _ = write!(out, " & {k}");
    }
    out.push_str(" \\\\\n\\hline\n");
    out
}

/// The cell of heap `n` with value `v` (a row starts at every tenth heap).
pub fn sequence_cell(n: usize, v: u32) -> String {
    let start = if n.is_multiple_of(10) {
        format!("{n}")
    } else {
        String::new()
    };
    let end = if n % 10 == 9 { " \\\\\n" } else { "" };
    format!("{start} & {v}{end}")
}

/// The end of a sequence of `count` values: the last row closed.
pub fn sequence_trailer(count: usize) -> String {
    let mut out = String::new();
    if !count.is_multiple_of(10) {
        out.push_str(&" &".repeat(10 - count % 10));
        out.push_str(" \\\\\n");
    }
    out.push_str("\\end{tabular}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_coordinates_make_a_matrix() {
        let csv = b"a,b,g\n1,1,0\n1,2,0\n2,2,1\n";
        let tex = from_csv(csv, "test").unwrap();
        let expected = "% grundy: test\n\\begin{tabular}{r|rr}\na$\\backslash$b & 1 & 2 \\\\\n\\hline\n\
                        1 & 0 & 0 \\\\\n2 &  & 1 \\\\\n\\end{tabular}\n";
        assert_eq!(tex, expected);
    }

    #[test]
    fn other_tables_are_one_row_per_entry_escaped() {
        let csv = b"code,rare_mask,period\n4!.0,5p1,\n";
        let tex = from_csv(csv, "survey").unwrap();
        assert!(tex.contains("code & rare\\_mask & period \\\\"), "{tex}");
        assert!(tex.contains("4!.0 & 5p1 &  \\\\"), "{tex}");
        assert_eq!(
            escape("a&b%c$d#e_f{g}h~i^j\\"),
            "a\\&b\\%c\\$d\\#e\\_f\\{g\\}h\\textasciitilde{}i\\textasciicircum{}j\\textbackslash{}"
        );
    }

    #[test]
    fn sequences_come_in_rows_of_ten() {
        let mut tex = sequence_header("0.07");
        for n in 0..12 {
            tex.push_str(&sequence_cell(n, n as u32 % 3));
        }
        tex.push_str(&sequence_trailer(12));
        assert!(
            tex.contains(
                "0 & 0 & 1 & 2 & 0 & 1 & 2 & 0 & 1 & 2 & 0 \\\\\n10 & 1 & 2 & & & & & & & & \\\\"
            ),
            "{tex}"
        );
        assert!(tex.ends_with("\\end{tabular}\n"));
    }
}
