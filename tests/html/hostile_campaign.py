# tests/html/hostile_campaign.py - writes on stdout a perfreg export
# (`perfreg import` reads it) of one campaign "hc" whose variant, host and
# metric names, unit and environment values are hostile: "<script>",
# "\"onload=", "</svg><svg onload=...>" and control bytes.  Three hosts,
# two boots each, five runs a variant a boot, the variant b 20% faster;
# the second boot of the first host changes cpu.governor and adds an
# item, both to hostile values, so that the page of `compare --campaign
# hc` has every table of the campaign: the boots' variance shares, the
# verdicts across hosts and the environment changes within a variant
# (tests/html/browser.sh loads it in Chromium).
import json, sys
S = "<script>alert(%d)</script>"
va = S % 21 + "\x1b[2J"
vb = "\"onload=alert(22) x='</svg><svg onload=alert(23)>\x07"
hosts = ["h1" + S % 24, "h2\"onload=alert(25)", "h3</svg><svg onload=alert(26)>\x01"]
metric = "m</svg><svg onload=alert(27)>\"onload=alert(28)\x1b"
unit = "s" + S % 31
evil_env = S % 29 + "\"onload=alert(30) </svg>\x1b[31m"
c = "hc"
out = [{"format": "perfreg-export", "version": 1, "schema": 1},
       {"type": "campaign", "name": c},
       {"type": "variant", "campaign": c, "name": va, "command": va},
       {"type": "variant", "campaign": c, "name": vb, "command": vb}]
def env(gov, extra):
    items = [{"key": "kernel.release", "category": "kernel", "value": "6.1"},
             {"key": "cpu.governor", "category": "cpu", "value": gov},
             {"key": "clocksource.current", "category": "clock", "value": "tsc"}]
    if extra:
        items.append({"key": "x" + S % 32, "category": "kernel",
                      "value": extra})
    return {"format": "perfreg-env", "version": 1, "items": items}
key = seq = runs = 0
speed = [1.0, 2.5, 0.6]
for h, host in enumerate(hosts):
    for b in range(2):
        key += 1
        second = h == 0 and b == 1
        out.append({"type": "session", "key": key, "campaign": c,
                    "host": host, "boot_id": "%s-boot%d" % (host, b),
                    "args": None, "status": "done",
                    "started": 1700000000 + 100 * key, "elapsed_s": 1,
                    "resumes": None, "tags": [],
                    "variants": [[va, va], [vb, vb]],
                    "env": env(evil_env if second else "performance",
                               evil_env if second else None)})
        bootf = 1 + 0.02 * ((key * 7) % 5 - 2)
        for r in range(5):
            for v in range(2):
                noise = 1 + 0.01 * (((seq * 37 + 11) % 9) - 4)
                x = 100 * speed[h] * bootf * noise * (0.8 if v else 1)
                out.append({"type": "run", "session": key,
                            "variant": vb if v else va, "round": r,
                            "seq": seq, "warmup": False, "ok": True,
                            "outcome": "ok", "exit_status": 0, "signal": 0,
                            "reason": "", "failed_in": None,
                            "truncated": False, "start_s": seq,
                            "metrics": [["wall_s", "s", "lower", x],
                                        [metric, unit, "lower", x * 2]],
                            "output": ""})
                seq += 1
                runs += 1
out.append({"type": "end", "campaigns": 1, "sessions": key, "runs": runs})
for o in out:
    print(json.dumps(o))
