"""The README's three questions over a directory of `wpp export --parquet` files, answered
by DuckDB, and the first answered again by Dask's distributed scheduler (a local cluster
of worker processes): the answers as JSON on standard output, for the test to compare
with wpp's own.

    python3 questions.py DIR FUNCTION [--dask]
"""

import json
import os
import sys

import duckdb


def questions(d, function):
    con = duckdb.connect()
    con.execute(f"CREATE VIEW runs AS SELECT * FROM read_parquet('{d}/runs/*.parquet')")
    con.execute(f"CREATE VIEW paths AS SELECT * FROM read_parquet('{d}/paths/*.parquet')")
    con.execute(f"CREATE VIEW functions AS SELECT * FROM read_parquet('{d}/functions/*.parquet')")
    con.execute(f"CREATE VIEW lines AS SELECT * FROM read_parquet('{d}/lines/*.parquet')")
    # 1. Paths executed in the field but never by the tests.
    q1 = con.execute("""
        SELECT r.module_key, p.function, p.path FROM paths p JOIN runs r USING (run)
        GROUP BY ALL HAVING bool_or(r.label = 'field') AND NOT bool_or(r.label = 'test')
        ORDER BY 1, 2, 3""").fetchall()
    # 2. One function's path distribution across runs.
    q2 = con.execute("""
        SELECT r.run, p.path, p.count, p.count / sum(p.count) OVER (PARTITION BY r.run) AS share
        FROM paths p JOIN runs r USING (run)
        JOIN functions f ON f.module = r.module AND f.function = p.function
        WHERE f.name = ?
        ORDER BY r.run, p.count DESC, p.path""", [function]).fetchall()
    # 3. The hottest source lines over all runs.
    q3 = con.execute("""
        SELECT file, line, sum(instructions) AS instructions, sum(executions) AS executions
        FROM lines GROUP BY file, line
        ORDER BY instructions DESC, file, line LIMIT 20""").fetchall()
    # The columns and types of every table present, as DuckDB reads them.
    schema = {}
    for t in sorted(os.listdir(d)):
        rows = con.execute(f"DESCRIBE SELECT * FROM read_parquet('{d}/{t}/*.parquet')").fetchall()
        schema[t] = [[r[0], r[1]] for r in rows]
    # A PPP run's residual paths: what ran outside the interesting set.
    residual = []
    if os.path.isdir(f"{d}/residual_paths"):
        residual = con.execute(f"""
            SELECT function, path, count FROM read_parquet('{d}/residual_paths/*.parquet') ORDER BY 1, 2""").fetchall()
    # Checks of the other tables. Edges: a block's executions leave it by its edges, so
    # where every edge out of a block is known their counts add up to the block's
    # executions (from the paths' blocks), but where a run stopped inside a block.
    unbalanced = con.execute(f"""
        WITH b AS (SELECT run, function, unnest(blocks) AS block, count FROM paths),
             execs AS (SELECT run, function, block, sum(count) AS n FROM b GROUP BY ALL),
             outs AS (SELECT run, function, from_block AS block, sum(count) AS n, bool_and(count IS NOT NULL) AS known
                      FROM read_parquet('{d}/edges/*.parquet') GROUP BY ALL)
        SELECT run, function, block, execs.n, outs.n FROM execs JOIN outs USING (run, function, block)
        WHERE known AND execs.n <> outs.n ORDER BY 1, 2, 3""").fetchall()
    # The calling context tree: per run, its own instructions, paths and calls in total.
    calls = []
    if os.path.isdir(f"{d}/call_tree"):
        calls = con.execute(f"""
            SELECT run, sum(own_instructions), sum(paths), sum(calls), max(instructions)
            FROM read_parquet('{d}/call_tree/*.parquet') GROUP BY run ORDER BY run""").fetchall()
    return {"q1": q1, "q2": q2, "q3": q3, "schema": schema, "residual": residual, "unbalanced": unbalanced, "calls": calls}


def field_not_test_dask(d):
    import dask.dataframe as dd
    from dask.distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, Client(cluster):
        paths = dd.read_parquet(f"{d}/paths/*.parquet", columns=["run", "function", "path"])
        runs = dd.read_parquet(f"{d}/runs/*.parquet", columns=["run", "label", "module_key"])
        j = paths.merge(runs, on="run")
        cols = ["module_key", "function", "path"]
        field = j[j.label == "field"][cols].drop_duplicates()
        test = j[j.label == "test"][cols].drop_duplicates()
        m = field.merge(test, on=cols, how="left", indicator=True)
        only = m[m["_merge"] == "left_only"][cols].compute()
        return sorted([int(a), int(b), int(c)] for a, b, c in only.itertuples(index=False))


def main():
    d, function = sys.argv[1], sys.argv[2]
    out = questions(d, function)
    if "--dask" in sys.argv[3:]:
        out["dask_q1"] = field_not_test_dask(d)
    json.dump(out, sys.stdout, default=str)


if __name__ == "__main__":
    main()
