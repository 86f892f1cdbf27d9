#!/usr/bin/env python3
"""The modules a fuzz harness links, read from the package description.

    python3 Fuzz/package-graph.py PACKAGE_JSON ROOT MODULE...

PACKAGE_JSON is `swift package dump-package` output; ROOT the package root; MODULE the
modules the harness imports (those that are no target of the package, such as Foundation,
are the toolchain's and need nothing). Prints one line per Swift module the harness needs,
in dependency order: `NAME|SOURCE_DIR|SWIFT_DEPENDENCIES|SYSTEM_LIBRARIES`, lists
space-separated, each system library as `NAME:DIR` (the directory of its module map). A
dependency limited to other platforms than Linux is left out, as SwiftPM leaves it out here.
"""
import json
import os
import sys


def main():
    package_json, root, wanted = sys.argv[1], sys.argv[2], sys.argv[3:]
    with open(package_json) as f:
        targets = {t["name"]: t for t in json.load(f)["targets"]}

    def dependencies(target):
        for dep in target["dependencies"]:
            kind, value = next(iter(dep.items()))
            name, condition = value[0], value[1] if len(value) > 1 else None
            platforms = (condition or {}).get("platformNames")
            if platforms and "linux" not in platforms:
                continue
            yield name

    order, seen = [], set()

    def visit(name):
        if name in seen:
            return
        seen.add(name)
        for dep in dependencies(targets[name]):
            visit(dep)
        order.append(name)

    for name in wanted:
        if name in targets:
            visit(name)
    def directory(name):
        return os.path.join(root, targets[name].get("path") or os.path.join("Sources", name))

    for name in order:
        if targets[name]["type"] == "system":
            continue
        deps = list(dependencies(targets[name]))
        swift = [d for d in deps if targets[d]["type"] != "system"]
        system = [f"{d}:{directory(d)}" for d in deps if targets[d]["type"] == "system"]
        print(f"{name}|{directory(name)}|{' '.join(swift)}|{' '.join(system)}")


if __name__ == "__main__":
    main()
