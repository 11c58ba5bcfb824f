"""The installed wheel, without a compiler: a sequence, a graph, a survey
and the version, each against values from the literature. Run with the
Python the wheel was installed into (`.ci/run` does)."""

import os
import re
import shutil

import grundy

for tool in ("cargo", "rustc"):
    assert shutil.which(tool) is None, f"{tool} is on the PATH: this must run without one"

# Dawson's Kayles: period 34 from heap 53 (Guy and Smith), certified.
kayles = grundy.octal("0.07", n=200)
assert (kayles.period, kayles.preperiod, kayles.certified) == (34, 53, True)
assert list(kayles.values[:10]) == [0, 0, 1, 1, 2, 0, 3, 1, 1, 0]

# 0.03 never splits a heap, so on a path of n vertices it is 0.03 on a heap of n.
heaps = grundy.octal("0.03", n=9).values
paths = [grundy.graph("0.03", f"path:{n}")["value"] for n in range(1, 10)]
assert paths == list(heaps[1:]) == [0, 1, 1, 0, 0, 1, 1, 0, 0], paths

# Dawson's chess (0.137) is Dawson's Kayles shifted by one heap.
rows = grundy.survey(["0.137", "0.07"], n=4096)
assert list(rows["code"]) == ["0.137", "0.07"], rows["code"]
assert list(rows["period"]) == [34, 34] and list(rows["preperiod"]) == [52, 53], rows

expected = os.environ.get("GRUNDY_EXPECT_COMMIT")
if expected:
    assert grundy.__commit__ == expected, (grundy.__commit__, expected)
    assert grundy.__version__.endswith(f"+g{expected}"), grundy.__version__
assert re.fullmatch(r"\d+\.\d+\.\d+(\+g[0-9a-f]{12}(\.changes)?)?", grundy.__version__), grundy.__version__
print(f"grundy {grundy.__version__}, built from {grundy.__commit__}: the wheel runs")
