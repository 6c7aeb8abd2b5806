"""`make install` into a staging folder (DESTDIR), then the installed memery used from outside
the clone, as a user would: it must find its built-in filters, stickers and editor files from
where it is installed, its man pages and completions must be there, a plugin must build with
pkg-config; then `make uninstall` must leave no file behind. Nothing outside a temporary
folder is touched (`make package-test` installs the Debian package for real, in a chroot).

Needs the release build, which `make test` makes before these tests run."""
import gzip
import http.cookiejar
import os
import pathlib
import re
import shutil
import subprocess
import urllib.request

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
RELEASE = ROOT / ".build" / "release"
PREFIX = "/usr/local"


@pytest.fixture(scope="module")
def staged(tmp_path_factory):
    """The tree `make install DESTDIR=… PREFIX=/usr/local` writes, and a clean environment to run it in."""
    if not all((RELEASE / name).exists() for name in ("memery", "memery-helper", "libmemery-builtins.so")):
        pytest.fail("the release build is missing: `make test` builds it before these tests (make release)")
    destdir = tmp_path_factory.mktemp("destdir")
    done = subprocess.run(["scripts/install", str(destdir), PREFIX], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    root = destdir / PREFIX.lstrip("/")
    home = tmp_path_factory.mktemp("home")
    env = {"PATH": f"{root / 'bin'}:/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8"}
    return destdir, root, home, env


def run(staged, *arguments, **options):
    _, _, home, env = staged
    return subprocess.run(list(arguments), cwd=home, env={**env, **options.pop("env", {})},
                          capture_output=True, text=True, timeout=120, **options)


def test_installed_memery_makes_a_meme_with_its_own_filters_and_stickers(staged):
    _, root, home, _ = staged
    shutil.copy(ROOT / "examples" / "chelsea.png", home / "chelsea.png")
    made = run(staged, "memery", "quick", "chelsea.png", "--top", "INSTALLED", "--bottom", "FROM ANYWHERE", "-o", "meme.jpg")
    assert made.returncode == 0, made.stderr
    assert (home / "meme.jpg").read_bytes()[:3] == b"\xff\xd8\xff"
    filters = run(staged, "memery", "filter", "list")
    assert re.search(r"^org\.memery\.sepia\tSepia\tbuiltin", filters.stdout, re.M), filters.stdout + filters.stderr
    assert "skipped" not in filters.stderr
    applied = run(staged, "memery", "filter", "apply", "chelsea", "org.memery.sepia")
    assert applied.returncode == 0, applied.stderr
    stickers = run(staged, "memery", "image", "stickers")
    assert "red-circle" in stickers.stdout.split(), stickers.stderr
    # The installed files are the ones found: not the clone's, nor the build folder's.
    assert (root / "lib/memery/libmemery-builtins.so").exists()
    assert (root / "share/memery/stickers/red-circle.png").exists()


def test_installed_memery_decodes_in_its_own_small_helper(staged):
    """Pictures are decoded by PREFIX/lib/memery/memery-helper, which starts faster than memery:
    made unusable, the error names it (and nothing is stored); put back, the import works."""
    _, root, home, _ = staged
    helper = root / "lib/memery/memery-helper"
    assert helper.exists() and os.access(helper, os.X_OK)
    assert not (root / "bin/memery-helper").exists(), "the helper is not a command for people: it stays off the PATH"
    # It starts fast because it links only what decoding and filters need: no drawing (Cairo,
    # Pango and the font and X libraries they bring), which memery itself links.
    def needed(binary):
        dynamic = subprocess.run(["readelf", "-d", str(binary)], capture_output=True, text=True, check=True).stdout
        return re.findall(r"\(NEEDED\).*\[(.*)\]", dynamic)
    drawing = re.compile(r"^lib(cairo|pango|harfbuzz|fontconfig|freetype|X11)")
    assert any(drawing.match(name) for name in needed(root / "bin/memery")), needed(root / "bin/memery")
    assert not [name for name in needed(helper) if drawing.match(name)], needed(helper)
    assert "libgdk_pixbuf-2.0.so.0" in needed(helper), needed(helper)
    shutil.copy(ROOT / "examples" / "chelsea.png", home / "helped.png")
    helper.chmod(0o644)
    try:
        refused = run(staged, "memery", "new", "helped", "--image", "helped.png", "--store", "helped-store")
        assert refused.returncode == 1 and f"the decoding helper {helper} is missing or not executable" in refused.stderr, refused.stderr
    finally:
        helper.chmod(0o755)
    listed = run(staged, "memery", "list", "--store", "helped-store")
    assert "helped" not in listed.stdout, listed.stdout
    made = run(staged, "memery", "new", "helped", "--image", "helped.png", "--store", "helped-store")
    assert made.returncode == 0, made.stderr
    shown = run(staged, "memery", "show", "helped", "--store", "helped-store")
    assert re.search(r"^canvas:\s+451x300$", shown.stdout, re.M), shown.stdout


def test_installed_memery_serves_the_editor_from_its_share_folder(staged):
    _, root, home, env = staged
    server = subprocess.Popen(["memery", "serve", "--port", "0", "--store", str(home / "served")], cwd=home, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        line = server.stdout.readline()
        address = re.search(r"http://127\.0\.0\.1:\d+/\?token=[0-9a-f]+", line)
        assert address, f"serve printed: {line!r}"
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        with opener.open(address.group(0), timeout=10) as page:
            body = page.read().decode()
            assert page.status == 200
        assert body.lower().startswith("<!doctype html>")
        assert body == (root / "share/memery/editor/index.html").read_text()
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_man_pages_cover_every_command_but_the_hidden_helpers(staged):
    _, root, _, _ = staged
    pages = sorted(p.name for p in (root / "share/man/man1").glob("memery*.1.gz"))
    assert "memery.1.gz" in pages and "memery.quick.1.gz" in pages and "memery.canvas.extend.1.gz" in pages
    assert not [p for p in pages if "__" in p], pages
    top = gzip.decompress((root / "share/man/man1/memery.1.gz").read_bytes()).decode()
    assert ".Xr memery.quick 1" in top and "__" not in top
    if shutil.which("man"):
        shown = run(staged, "man", "-l", str(root / "share/man/man1/memery.canvas.extend.1.gz"), env={"MANPAGER": "cat"})
        assert "--bottom" in shown.stdout, shown.stderr


def test_bash_completes_a_subcommand(staged):
    _, root, _, _ = staged
    script = (f"source {root}/share/bash-completion/completions/memery; "
              'COMP_WORDS=(memery fil); COMP_CWORD=1; COMP_LINE="memery fil"; COMP_POINT=${#COMP_LINE}; '
              '_memery memery fil memery; printf "%s\\n" "${COMPREPLY[@]}"')
    completed = run(staged, "bash", "-c", script)
    assert completed.stdout.split() == ["filter"], completed.stdout + completed.stderr
    assert (root / "share/zsh/site-functions/_memery").read_text().startswith("#compdef memery")
    assert "complete -c 'memery'" in (root / "share/fish/vendor_completions.d/memery.fish").read_text()


def test_a_plugin_from_the_guide_builds_with_pkg_config_and_is_found_in_the_system_folder(staged):
    _, root, home, _ = staged
    guide = (ROOT / "docs/plugins.md").read_text()
    (home / "posterize.c").write_text(re.search(r"```c\n(.*?)```", guide, re.S).group(1))
    # The .pc file names the installed prefix; PKG_CONFIG_SYSROOT_DIR maps it into the staging folder.
    pkg = {"PKG_CONFIG_PATH": str(root / "share/pkgconfig"), "PKG_CONFIG_SYSROOT_DIR": str(staged[0])}
    cflags = run(staged, "pkg-config", "--cflags", "memery-filter", env=pkg)
    assert cflags.returncode == 0, cflags.stderr
    assert f"-I{staged[0]}{PREFIX}/include/memery" in cflags.stdout
    built = run(staged, "cc", *cflags.stdout.split(), "-shared", "-O2", "-o", "posterize.so", "posterize.c", "-lm")
    assert built.returncode == 0, built.stderr
    shutil.copy(home / "posterize.so", root / "lib/memery/plugins/posterize.so")
    try:
        listed = run(staged, "memery", "filter", "list")
        assert re.search(r"^org\.example\.posterize\tPosterize\tuser", listed.stdout, re.M), listed.stdout + listed.stderr
    finally:
        (root / "lib/memery/plugins/posterize.so").unlink()


def test_the_service_unit_runs_the_installed_hub(staged):
    _, root, _, _ = staged
    unit = (root / "lib/systemd/system/memery-hub.service").read_text()
    assert f"ExecStart={PREFIX}/bin/memery hub serve $MEMERY_HUB_OPTIONS" in unit
    assert "EnvironmentFile=-/etc/default/memery-hub" in unit and "DynamicUser=yes" in unit
    if shutil.which("systemd-analyze"):
        local = staged[0] / "memery-hub.service"
        local.write_text(unit.replace(f"{PREFIX}/bin/memery", str(root / "bin/memery")))
        checked = subprocess.run(["systemd-analyze", "verify", "--man=no", str(local)], capture_output=True, text=True)
        assert checked.returncode == 0, checked.stderr


def test_uninstall_leaves_no_file_behind(staged):
    destdir, root, _, _ = staged
    done = subprocess.run(["scripts/install", "--uninstall", str(destdir), PREFIX], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    left = [str(p.relative_to(destdir)) for p in root.rglob("*") if not p.is_dir()]
    assert left == []
