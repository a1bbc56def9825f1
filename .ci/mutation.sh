#!/usr/bin/env bash
# Mutation testing of fedtheory's numerical core with mutmut 3 (NOT part of CI: slow, minutes per module).
#
#   bash .ci/mutation.sh                  # every module below
#   bash .ci/mutation.sh srpfl-theory     # some modules (names from the table below)
#   MUTATION_JOBS=1 bash .ci/mutation.sh  # mutmut --max-children (default 2)
#   MUTATION_SAMPLE=150 bash .ci/mutation.sh srpfl-algorithms  # a seeded random sample of the mutants
#   MUTATION_NAMES=survivors.txt bash .ci/mutation.sh srpfl-theory  # re-run only the named mutants
#   # names may be globs, one a line, e.g. fedtheory.decide._stats.x_sweeps_needed__mutmut_* (one function's mutants)
#
# Each module is mutated in a throw-away clone of the current checkout (uncommitted changes to
# fedtheory/ and tests/ are copied in), with only its own test file (tests/<area>/test_<module>.py, which
# mirrors the package) and the few extra files the table names, so the work tree, the
# editable install and other people's edits are never touched. mutmut puts the mutated copy
# first on sys.path; the script checks that the tests really import it. Per module it prints
# killed / total (a timeout counts as killed: the tests did not pass), the mutants listed as
# equivalent in .ci/mutation-triage.md, the survivors left and the score
# killed / (total - equivalent). Results also go to $MUTATION_OUT
# (default /tmp/fedtheory-mutation/<module>.txt).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
jobs=${MUTATION_JOBS:-2}
out=${MUTATION_OUT:-/tmp/fedtheory-mutation}
mkdir -p "$out"
python3 -c 'import mutmut' 2>/dev/null || python3 -m pip install -q 'mutmut>=3,<4'

# module name | file to mutate | pytest arguments besides the module's own test file, which mirrors it:
# fedtheory/<m>.py -> tests/core/test_<m>.py, fedtheory/decide/_<m>.py -> tests/decide/test_<m>.py,
# fedtheory/<subject>/<m>.py -> tests/<subject>/test_<m>.py (the paper catalogue's tests, tests/papers/, run claims
# and are not used here)
modules=(
  "decide-stats|fedtheory/decide/_stats.py|"
  "decide-bounds|fedtheory/decide/_bounds.py|"
  "decide-fits|fedtheory/decide/_fits.py|"
  "decide-outcomes|fedtheory/decide/_outcomes.py|"
  "decide-compound|fedtheory/decide/_compound.py|"
  "claims|fedtheory/claims.py|"
  "ledger|fedtheory/ledger.py|"
  "montecarlo|fedtheory/montecarlo.py|"
  "linalg|fedtheory/linalg.py|"
  "representation-theory|fedtheory/representation/theory.py|"
  "representation-algorithms|fedtheory/representation/algorithms.py|tests/representation/test_replicates.py -k not~equal_in_law"
  "representation-replicates|fedtheory/representation/replicates.py|tests/representation/test_algorithms.py"
  "representation-structure|fedtheory/representation/structure.py|"
  "representation-sample-budget|fedtheory/representation/sample_budget.py|"
  "srpfl-theory|fedtheory/srpfl/theory.py|"
  "srpfl-algorithms|fedtheory/srpfl/algorithms.py|tests/srpfl/test_replicates.py"
  "srpfl-replicates|fedtheory/srpfl/replicates.py|tests/srpfl/test_algorithms.py"
  "representation-engine|fedtheory/representation/_engine.py|tests/representation/test_algorithms.py tests/representation/test_replicates.py"
  "srpfl-engine|fedtheory/srpfl/_engine.py|tests/srpfl/test_algorithms.py tests/srpfl/test_replicates.py"
  "architecture|fedtheory/architecture.py|"
  "srpfl-proof-quantities|fedtheory/srpfl/proof_quantities.py|"
  "srpfl-meta|fedtheory/srpfl/meta.py|"
  "lpproj-theory|fedtheory/lpproj/theory.py|-k not~fairness_expectation"
  "lpproj-algorithms|fedtheory/lpproj/algorithms.py|"
  "lpproj-stochastic|fedtheory/lpproj/stochastic.py|"
  "lpproj-schedules|fedtheory/lpproj/schedules.py|"
  "lpproj-robust|fedtheory/lpproj/robust.py|"
  "lpproj-extras|fedtheory/lpproj/extras.py|"
  "lpproj-a6|fedtheory/lpproj/a6.py|"
  "lowrank-theory|fedtheory/lowrank/theory.py|"
  "lowrank-algorithms|fedtheory/lowrank/algorithms.py|"
  "lowrank-fedave|fedtheory/lowrank/fedave.py|"
  "lowrank-chain|fedtheory/lowrank/chain.py|"
  "lowrank-assumption8|fedtheory/lowrank/assumption8.py|"
  "lowrank-holder-classes|fedtheory/lowrank/holder_classes.py|"
  "lowrank-hypotheses|fedtheory/lowrank/hypotheses.py|"
)

# the test file that mirrors a module (see the table above)
mirrored() {
  local rel=${1#fedtheory/} base
  base=$(basename "$rel" .py)
  base=${base#_}
  case $rel in
    */*) echo "tests/$(dirname "$rel")/test_$base.py" ;;
    *) echo "tests/core/test_$base.py" ;;
  esac
}

want=("$@")
selected() {
  [ ${#want[@]} -eq 0 ] && return 0
  local w; for w in "${want[@]}"; do [ "$w" = "$1" ] && return 0; done; return 1
}

# mutants marked equivalent in the triage table: rows "| `mutant.name` | equivalent | why |"
equivalents() {
  grep -oE '^\| *`[^`]+` *\| *equivalent' "$repo/.ci/mutation-triage.md" 2>/dev/null \
    | sed -E 's/^\| *`([^`]+)`.*/\1/' || true
}

summary=()
for row in "${modules[@]}"; do
  IFS='|' read -r name file extra <<<"$row"
  selected "$name" || continue
  tests="$(mirrored "$file") $extra"
  work=$(mktemp -d /tmp/fedtheory-mut-XXXXXX)
  git -C "$repo" ls-files -z --cached --others --exclude-standard -- fedtheory tests checks pyproject.toml \
    | (cd "$repo" && xargs -0 cp --parents -t "$work")
  # pytest -k expressions have spaces; the table writes them with "~" to keep one word
  args=()
  for t in $tests; do
    case $t in
      *~*) args+=("${t//\~/ }") ;;
      *) [ -e "$work/$t" ] || [ "${t:0:1}" = "-" ] && args+=("$t") ;;
    esac
  done
  {
    echo "[mutmut]"
    echo "source_paths = fedtheory/"
    echo "only_mutate = $file"
    printf 'pytest_add_cli_args =\n    -p\n    no:cacheprovider\n'
    echo "pytest_add_cli_args_test_selection ="
    for a in "${args[@]}"; do echo "    $a"; done
  } >"$work/setup.cfg"
  # the tests must import the mutated copy, not the editable install
  (cd "$work" && mkdir -p mutants && PYTHONPATH="$work" python3 -c \
    "import fedtheory, sys; p = fedtheory.__file__; sys.exit(0 if p.startswith('$work') else 'fedtheory imported from ' + p)")
  start=$(date +%s)
  if [ -n "${MUTATION_NAMES:-}" ]; then
    # re-run only the mutants named in the file $MUTATION_NAMES (e.g. the survivors of an earlier run)
    prefix="$(echo "${file%.py}" | tr / .)."
    awk -v p="$prefix" 'index($1, p) == 1 {print $1}' "$MUTATION_NAMES" >"$work/sample.txt"
    (cd "$work" && nice python3 -m mutmut run --max-children "$jobs" "no-such-mutant" >"$out/$name.log" 2>&1) || true
    (cd "$work" && xargs -a sample.txt nice python3 -m mutmut run --max-children "$jobs" >>"$out/$name.log" 2>&1) || true
  elif [ -n "${MUTATION_SAMPLE:-}" ]; then
    # a seeded random sample of MUTATION_SAMPLE mutants: generate all (a filter matching nothing stops
    # mutmut after generation and the stats run), draw the sample, run only those
    (cd "$work" && nice python3 -m mutmut run --max-children "$jobs" "no-such-mutant" >"$out/$name.log" 2>&1) || true
    (cd "$work" && python3 -m mutmut results --all true 2>/dev/null | sed -nE 's/^ *([^ :]+): .*$/\1/p' \
      | python3 -c "import random, sys; n = [l.strip() for l in sys.stdin if l.strip()]; random.seed(0); \
print('\n'.join(sorted(random.sample(n, min(len(n), int(sys.argv[1]))))))" "$MUTATION_SAMPLE" >"$work/sample.txt")
    (cd "$work" && xargs -a sample.txt nice python3 -m mutmut run --max-children "$jobs" >>"$out/$name.log" 2>&1) || true
  else
    (cd "$work" && nice python3 -m mutmut run --max-children "$jobs" >"$out/$name.log" 2>&1) || true
  fi
  secs=$(( $(date +%s) - start ))
  (cd "$work" && python3 -m mutmut results --all true >"$out/$name.txt" 2>&1) || true
  if [ -n "${MUTATION_SAMPLE:-}${MUTATION_NAMES:-}" ]; then
    # names may be shell-style globs (mutmut accepts them): expand them against the file's mutants
    sed -nE 's/^ *([^ :]+): .*$/\1/p' "$out/$name.txt" | python3 -c "import fnmatch, sys; \
pats = [l.strip() for l in open(sys.argv[1]) if l.strip()]; \
print('\n'.join(n for n in (l.strip() for l in sys.stdin) if any(fnmatch.fnmatchcase(n, p) for p in pats)))" \
      "$work/sample.txt" >"$work/sample.expanded"
    mv "$work/sample.expanded" "$work/sample.txt"
    grep -F -w -f "$work/sample.txt" "$out/$name.txt" >"$out/$name.sample" || true
    mv "$out/$name.sample" "$out/$name.txt"
    label="$name ($( [ -n "${MUTATION_NAMES:-}" ] && echo "re-run of" || echo "random sample of") $(wc -l <"$work/sample.txt") mutants)"
  else
    label=$name
  fi
  total=$(sed -nE 's/^ *([^ :]+): (.*)$/\1/p' "$out/$name.txt" | wc -l)
  # a mutant is detected when a test fails (killed) or the tests time out on it (an endless loop)
  killed=$(grep -cE ': (killed|timeout)$' "$out/$name.txt" || true)
  eqv=0; left=()
  eqlist=$(equivalents)
  while IFS=$'\t' read -r mname status; do
    [ -z "$mname" ] && continue
    [ "$status" = "killed" ] || [ "$status" = "timeout" ] && continue
    if grep -qxF "$mname" <<<"$eqlist"; then eqv=$((eqv + 1)); else left+=("$mname ($status)"); fi
  done < <(sed -nE 's/^ *([^ :]+): (.*)$/\1\t\2/p' "$out/$name.txt")
  denom=$((total - eqv))
  score=$(python3 -c "print(f'{100*$killed/max($denom,1):.1f}%')")
  line="$label: killed $killed / $total, equivalent $eqv, survivors left ${#left[@]}, score $score, ${secs}s"
  echo "$line"
  printf '  %s\n' "${left[@]}" >"$out/$name.left"
  # the diff of every mutant not killed, for the triage (one process: `mutmut show` per mutant is slow)
  (cd "$work" && python3 - "$out/$name.left" >"$out/$name.diffs" 2>&1 <<'PY'
import sys
from mutmut.mutation.diff_apply import find_mutant, get_diff_for_mutant
from mutmut.stats import status_by_exit_code
for line in open(sys.argv[1]):
    if not line.strip():
        continue
    name = line.split()[0]
    m = find_mutant(name)
    print(f"# {name}: {status_by_exit_code[m.exit_code_by_key[name]]}")
    print(get_diff_for_mutant(name, path=m.path))
PY
  ) || true
  summary+=("$line")
  rm -rf "$work"
done
echo
echo "== mutation scores (killed / (total - equivalent)) =="
printf '%s\n' "${summary[@]}"
