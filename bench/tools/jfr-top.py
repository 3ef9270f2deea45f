#!/usr/bin/env python3
"""Where the CPU time of a JFR recording goes: reads `jfr print --stack-depth 64 --events jdk.ExecutionSample FILE`
and prints the samples per thread group, the top self frames, and the share of samples whose stack holds each of a few
markers (inclusive). Usage: bench/tools/jfr-top.py [--window HH:MM:SS-HH:MM:SS] FILE.jfr [FILE.jfr ...]
(--window keeps the samples whose startTime, as jfr prints it, falls in that span, e.g. one run's)"""
import collections, re, subprocess, sys

MARKERS = [
    ("JsonConverter.fromConnectData (serialize)", "org.apache.kafka.connect.json.JsonConverter.fromConnectData"),
    ("  of it: JsonConverter.convertToJson", "org.apache.kafka.connect.json.JsonConverter.convertToJson"),
    ("  of it: JsonConverter.asJsonSchema", "org.apache.kafka.connect.json.JsonConverter.asJsonSchema"),
    ("  of it: Jackson writing bytes", "com.fasterxml.jackson.databind.ObjectMapper.writeValueAsBytes"),
    ("KafkaProducer.send (producer, in the task thread)", "org.apache.kafka.clients.producer.KafkaProducer.send"),
    ("producer I/O thread (Sender)", "org.apache.kafka.clients.producer.internals.Sender.run"),
    ("WorkerSourceTask.sendRecords", "org.apache.kafka.connect.runtime.AbstractWorkerSourceTask.sendRecords"),
    ("transformations / headers (TransformationChain)", "org.apache.kafka.connect.runtime.TransformationChain"),
    ("source task poll() (our connector)", "org.apache.kafka.connect.runtime.AbstractWorkerSourceTask.poll"),
    ("our code (io.vstream)", "io.vstream."),
    ("binlog client (reading, decoding)", "com.github.shyiko.mysql.binlog"),
    ("offset commit / flush", "org.apache.kafka.connect.runtime.OffsetStorageWriter"),
    ("compression", "org.apache.kafka.common.compress"),
    ("GC-related (allocation slow path)", "java.lang.ref"),
]

def samples(path):
    out = subprocess.run(["jfr", "print", "--stack-depth", "64", "--events", "jdk.ExecutionSample", path],
                         capture_output=True, text=True, check=True).stdout
    for block in out.split("jdk.ExecutionSample {")[1:]:
        t = re.search(r'startTime = (\d\d:\d\d:\d\d)', block)
        if WINDOW and t and not (WINDOW[0] <= t.group(1) <= WINDOW[1]):
            continue
        m = re.search(r'sampledThread = "([^"]*)"', block)
        thread = m.group(1) if m else "?"
        frames = []
        for l in block.split("stackTrace = [", 1)[-1].splitlines()[1:]:
            l = l.strip()
            if l == "]":
                break
            if l and l != "...":
                frames.append(l)
        frames = [re.sub(r"\s+line:.*$", "", f) for f in frames]
        yield thread, frames

def group(thread, frames=()):
    t = re.sub(r"\d+", "N", thread)
    joined = "\n".join(frames)
    if "task-thread" in t or "org.apache.kafka.connect.runtime.WorkerTask.run" in joined or (
            t.startswith("pool-") and "Plugins.lambda$withClassLoader" in joined) or (
            t.startswith("pool-") and len(frames) >= 64):
        return "Connect task thread (poll, convert, send)"
    if "producer-network-thread" in t or "kafka-producer-network-thread" in t: return "producer I/O thread"
    if "data-plane-kafka-request-handler" in t or "request-handler" in t: return "broker request handlers"
    if "data-plane-kafka-network-thread" in t or "network-thread" in t: return "broker network threads"
    if "blc-" in t or "binlog" in t.lower(): return "binlog client thread"
    if "vstream" in t: return "connector threads (vstream-*)"
    if "GC" in t or "G1" in t: return "GC"
    return t

args = sys.argv[1:]
WINDOW = None
if len(args) > 1 and args[0] == "--window":
    WINDOW = tuple(args[1].split("-", 1))
    args = args[2:]

for path in args:
    by_group = collections.Counter()
    self_frames = collections.Counter()
    incl = collections.Counter()
    total = 0
    task_total = 0
    task_self = collections.Counter()
    for thread, frames in samples(path):
        total += 1
        g = group(thread, frames)
        by_group[g] += 1
        if frames:
            self_frames[frames[0]] += 1
        joined = "\n".join(frames)
        for name, marker in MARKERS:
            if marker in joined:
                incl[name] += 1
        if g.startswith("Connect task thread"):
            task_total += 1
            # the first frame that is not JDK/Jackson internals, for a readable "where" in the task thread
            for f in frames:
                if not f.startswith(("java.", "jdk.", "sun.")):
                    task_self[f] += 1
                    break
    print(f"== {path}: {total} execution samples")
    print("-- by thread group")
    for g, n in by_group.most_common(12):
        print(f"{n:7d} {100*n/total:5.1f}%  {g}")
    print("-- inclusive (stack contains)")
    for name, _ in MARKERS:
        n = incl[name]
        print(f"{n:7d} {100*n/max(total,1):5.1f}%  {name}")
    print("-- top self frames")
    for f, n in self_frames.most_common(20):
        print(f"{n:7d} {100*n/total:5.1f}%  {f}")
    if task_total:
        print(f"-- task thread ({task_total} samples): top first non-JDK frames")
        for f, n in task_self.most_common(15):
            print(f"{n:7d} {100*n/task_total:5.1f}%  {f}")
