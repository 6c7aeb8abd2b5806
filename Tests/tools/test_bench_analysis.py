"""scripts/bench-analysis, which `make bench-peers` runs: the analysis's figures are computed
from the run's own tables, and a reference that names no figure, or several, stops the
report instead of printing one from elsewhere."""
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "bench-analysis")

REPORT = """# Benchmarks

## Quick meme: a picture

| tool | median s | min s | max s | peak MiB | ratio to memery | paired ratio to memery |
| --- | --- | --- | --- | --- | --- | --- |
| memery quick | 0.200 | 0.190 | 0.210 | 98 | 1.00 | 1.00 |
| Pillow 13 | 0.500 | 0.490 | 0.520 | 111 | 2.50 | 2.40 |

## History (memery only)

```
  replay of 1000 events: median 2.00 s, 500 events/s
```

| what | events/s median | min | max | ratio |
| --- | --- | --- | --- | --- |
| memery: read and check only | 1,000,000 | 1 | 2 | 1.00 |
| memery: read, check, decode and fold | 400000 | 1 | 2 | 0.40 |
| SQLite in C: SELECT | 4000000 | 1 | 2 | 4.00 |
"""


def fill(tmp_path, template):
    (tmp_path / "report.md").write_text(REPORT)
    (tmp_path / "template.md").write_text(template)
    return subprocess.run([SCRIPT, str(tmp_path / "template.md"), str(tmp_path / "report.md")], capture_output=True, text=True)


def test_figures_come_from_the_report(tmp_path):
    done = fill(tmp_path, "quick {{share Quick meme >> Pillow}} of Pillow's time ({{paired Quick meme >> Pillow}}); "
                          "replay {{ratio History >> decode and fold / History >> SQLite}}, "
                          "reading {{ratio History >> read and check only / History >> SQLite}}; "
                          "{{value History >> replay of}} s; {{value Quick meme >> memery quick}} s\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "quick 0.42 of Pillow's time (2.40); replay 0.10, reading 0.25; 2.00 s; 0.200 s\n"


def test_a_reference_naming_several_rows_or_none_stops_the_report(tmp_path):
    several = fill(tmp_path, "{{ratio History >> memery / History >> SQLite}}")
    assert several.returncode != 0 and "names 2 places" in several.stderr
    none = fill(tmp_path, "{{value History >> ImageMagick}}")
    assert none.returncode != 0 and "names 0 places" in none.stderr
    no_section = fill(tmp_path, "{{value Filters >> vips}}")
    assert no_section.returncode != 0 and "names 0 sections" in no_section.stderr
    unpaired = fill(tmp_path, "{{paired History >> SQLite}}")
    assert unpaired.returncode != 0 and "paired ratio" in unpaired.stderr


def test_the_committed_template_names_only_sections_a_run_writes():
    """Every reference in docs/benchmarks-analysis.md names a section scripts/bench-peers
    writes (its rows come from the script and from memery-bench's output: a run checks those)."""
    import re
    template = open(os.path.join(ROOT, "docs", "benchmarks-analysis.md")).read()
    script = open(os.path.join(ROOT, "scripts", "bench-peers")).read()
    references = re.findall(r"\{\{\w+ ([^}]*)\}\}", template)
    assert len(references) >= 15
    for reference in references:
        for part in reference.split(" / "):
            section = part.partition(">>")[0].strip()
            assert f'echo "## {section}' in script, section
