"""scripts/check-imports, which `make test` runs: it passes on the tree as it is, and fails
naming the file, the target and the module when a front end reaches below the facade or a
target imports a module it does not declare."""
import os
import shutil
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def copy_of_the_package(tmp_path):
    """Package.swift, the script and every Swift source, without builds or fixtures."""
    shutil.copy(os.path.join(ROOT, "Package.swift"), tmp_path / "Package.swift")
    (tmp_path / "scripts").mkdir()
    shutil.copy(os.path.join(ROOT, "scripts", "check-imports"), tmp_path / "scripts" / "check-imports")
    for top in ("Sources", "Tests", "Plugins"):
        for directory, _, files in os.walk(os.path.join(ROOT, top)):
            relative = os.path.relpath(directory, ROOT)
            os.makedirs(tmp_path / relative, exist_ok=True)
            for name in files:
                if name.endswith((".swift", ".h", ".c", ".modulemap")):
                    shutil.copy(os.path.join(directory, name), tmp_path / relative / name)
    return tmp_path


def check(folder):
    return subprocess.run([str(folder / "scripts" / "check-imports")], cwd=folder, capture_output=True, text=True)


def test_the_tree_as_it_is_passes():
    result = subprocess.run([os.path.join(ROOT, "scripts", "check-imports")], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout == ""


def test_a_front_end_reaching_below_the_facade_fails(tmp_path):
    folder = copy_of_the_package(tmp_path)
    (folder / "Sources" / "memery" / "Reach.swift").write_text("import MemeryStore\n")
    result = check(folder)
    assert result.returncode == 1
    assert "Sources/memery/Reach.swift:1: memery imports MemeryStore without declaring it" in result.stdout
    assert "Sources/memery/Reach.swift:1: memery is a front end and imports MemeryStore, below the facade" in result.stdout


def test_an_undeclared_import_fails(tmp_path):
    folder = copy_of_the_package(tmp_path)
    (folder / "Sources" / "MemeryCore" / "Stray.swift").write_text("internal import NIOCore\n")
    result = check(folder)
    assert result.returncode == 1
    assert result.stdout.strip() == "Sources/MemeryCore/Stray.swift:1: MemeryCore imports NIOCore without declaring it in Package.swift"
