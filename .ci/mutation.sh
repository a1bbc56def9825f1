#!/usr/bin/env bash
# Mutation testing of fedtheory's numerical core with mutmut 3 (NOT part of CI: slow, minutes per module).
#
#   bash .ci/mutation.sh                  # every module below
#   bash .ci/mutation.sh srpfl-theory     # some modules (names from the table below)
#   MUTATION_JOBS=1 bash .ci/mutation.sh  # mutmut --max-children (default 2)
#   MUTATION_SAMPLE=150 bash .ci/mutation.sh srpfl-algorithms  # a seeded random sample of the mutants
#   MUTATION_NAMES=survivors.txt bash .ci/mutation.sh srpfl-theory  # re-run only the named mutants
#
# Each module is mutated in a throw-away clone of the current checkout (uncommitted changes to
# fedtheory/ and tests/ are copied in), with only its fast test files, so the work tree, the
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

# module name | file to mutate | fast test files (pytest arguments)
modules=(
  "decide-stats|fedtheory/decide/_stats.py|tests/core/test_decide.py"
  "decide-bounds|fedtheory/decide/_bounds.py|tests/core/test_decide.py"
  "decide-fits|fedtheory/decide/_fits.py|tests/core/test_decide.py"
  "decide-outcomes|fedtheory/decide/_outcomes.py|tests/core/test_decide.py"
  "decide-compound|fedtheory/decide/_compound.py|tests/core/test_decide.py"
  "claims|fedtheory/claims.py|tests/core/test_claims.py"
  "montecarlo|fedtheory/montecarlo.py|tests/test_core.py tests/test_bugs_montecarlo.py -k not~dask~and~not~sweep"
  "representation-theory|fedtheory/representation/theory.py|tests/test_representation.py tests/test_bugs_representation.py"
  "representation-algorithms|fedtheory/representation/algorithms.py|tests/test_representation.py tests/test_bugs_representation.py tests/test_reduced_sampler.py tests/test_replicates.py -k not~equal_in_law"
  "representation-replicates|fedtheory/representation/replicates.py|tests/test_replicates.py tests/test_representation.py"
  "srpfl-theory|fedtheory/srpfl/theory.py|tests/test_srpfl.py tests/test_bugs_srpfl.py"
  "srpfl-algorithms|fedtheory/srpfl/algorithms.py|tests/test_srpfl.py tests/test_bugs_srpfl.py tests/test_srpfl_replicates.py"
  "srpfl-replicates|fedtheory/srpfl/replicates.py|tests/test_srpfl_replicates.py tests/test_srpfl.py"
  "lpproj-theory|fedtheory/lpproj/theory.py|tests/test_lpproj.py tests/test_bugs_lpproj.py tests/test_lpproj_fairness.py tests/test_lpproj_library_edge_cases.py -k not~fairness_expectation~and~not~claim"
  "lpproj-algorithms|fedtheory/lpproj/algorithms.py|tests/test_lpproj.py tests/test_bugs_lpproj.py tests/test_lpproj_fairness.py tests/test_lpproj_library_edge_cases.py -k not~fairness_expectation~and~not~claim"
  "lowrank-theory|fedtheory/lowrank/theory.py|tests/test_lowrank.py tests/test_bugs_lowrank.py"
  "lowrank-algorithms|fedtheory/lowrank/algorithms.py|tests/test_lowrank.py tests/test_bugs_lowrank.py"
  "linalg|fedtheory/linalg.py|tests/test_linalg.py tests/test_bugs_linalg.py tests/test_structure_proof_quantities_linalg_kernels.py"
  "representation-structure|fedtheory/representation/structure.py|tests/test_fedrep_errata.py tests/test_structure_proof_quantities_linalg_kernels.py"
  "srpfl-proof-quantities|fedtheory/srpfl/proof_quantities.py|tests/test_srpfl_lemmas.py tests/test_structure_proof_quantities_linalg_kernels.py"
  "representation-sample-budget|fedtheory/representation/sample_budget.py|tests/test_fedrep_sample_complexity.py tests/test_structure_proof_quantities_linalg_kernels_more.py"
  "srpfl-meta|fedtheory/srpfl/meta.py|tests/test_srpfl_sec3_figs.py tests/test_structure_proof_quantities_linalg_kernels_more.py"
  "lpproj-stochastic|fedtheory/lpproj/stochastic.py|tests/test_lpproj_thm9.py tests/test_lpproj_library_edge_cases.py -k not~claim~and~not~fails_paths"
  "lpproj-schedules|fedtheory/lpproj/schedules.py|tests/test_lpproj_schedules.py tests/test_lpproj_library_edge_cases.py -k not~claim~and~not~fails_path"
  "lpproj-robust|fedtheory/lpproj/robust.py|tests/test_lpproj_robust.py tests/test_lpproj_library_edge_cases.py -k not~claim~and~not~fails_path"
  "lpproj-extras|fedtheory/lpproj/extras.py|tests/test_lpproj_extras.py tests/test_lpproj_library_edge_cases.py -k not~claim~and~not~fails_path"
  "lpproj-a6|fedtheory/lpproj/a6.py|tests/test_lpproj_a6.py tests/test_lpproj_library_edge_cases.py -k not~claim~and~not~fails_path"
  "lowrank-fedave|fedtheory/lowrank/fedave.py|tests/test_fedlrgd_fedave.py tests/test_lowrank_library_edge_cases.py -k not~claim~and~not~fails_path"
  "lowrank-chain|fedtheory/lowrank/chain.py|tests/test_fedlrgd_thm2_chain.py tests/test_lowrank_library_edge_cases.py -k not~claim~and~not~fails_path"
  "lowrank-assumption8|fedtheory/lowrank/assumption8.py|tests/test_fedlrgd_assumption8.py tests/test_lowrank_library_edge_cases.py -k not~claim~and~not~fails_path"
  "lowrank-holder-classes|fedtheory/lowrank/holder_classes.py|tests/test_fedlrgd_holder_classes.py tests/test_lowrank_library_edge_cases.py -k not~claim~and~not~fails_path"
)

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
  IFS='|' read -r name file tests <<<"$row"
  selected "$name" || continue
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
