#!/bin/sh
# An Ants bot for the referee's tests: `ants_bot.sh MODE TURN PIDFILE`.
# It holds (answers every turn with a bare `go`) until turn TURN, where it misbehaves:
#   hold   never misbehaves
#   crash  exits with code 3 instead of answering
#   hang   starts a child (`sleep`) and waits for it, never answering
#   flood  writes order lines without end (through a child, `yes`)
#   hog    builds a string of 400 MB in the shell's memory
#   babble writes to stderr without end (through a child, `yes`), never answering
#   silent (turn 0 only) never says `go` to the setup block
#   late   answers, but only after sleeping 3 s
#   ticker starts a child that appends a line to PIDFILE.ticks every 10 ms
#   slow   (from turn TURN on) sleeps 0.3 s before every answer
#   invalid sends an order with a bad direction (`o 1 10 x`) before its `go`
#   escape starts a helper in a session of its own (`setsid`) that sleeps, with PIDFILE in
#          its command line and in PLY_TEST_MARK in its environment (and its sleep's)
# Every process it starts writes its pid to PIDFILE, so that tests can check none is left;
# a bot that gets to read its `end` line notes it in PIDFILE.end.
mode=$1
at=$2
pids=$3
echo $$ >> "$pids"
turn=0
misbehave() {
    case "$mode" in
        crash) exit 3 ;;
        hang) sleep 300 & echo $! >> "$pids"; wait ;;
        flood) yes 'o 0 0 n' & echo $! >> "$pids"; wait ;;
        babble) yes babble >&2 & echo $! >> "$pids"; wait ;;
        hog) x=$(head -c 400000000 /dev/zero | tr '\0' x); echo "${#x}" >&2 ;;
        silent) exec cat > /dev/null ;;
        late) sleep 3 ;;
        invalid) echo 'o 1 10 x' ;;
        escape) setsid env PLY_TEST_MARK="$pids" sh -c ': > "$0.escaped"; sleep 1000; :' "$pids" \
                </dev/null >/dev/null 2>&1 &
            echo $! >> "$pids"
            # Answers once the helper left the group (a pause would stop it before that).
            while [ ! -e "$pids.escaped" ]; do sleep 0.01; done ;;
        ticker) (while :; do echo t >> "$pids.ticks"; sleep 0.01; done) & echo $! >> "$pids" ;;
    esac
}
while IFS= read -r line; do
    case "$line" in
        "turn "*) turn=${line#turn } ;;
        ready|go)
            if [ "$turn" = "$at" ]; then misbehave; fi
            if [ "$mode" = slow ] && [ "$turn" -ge "$at" ]; then sleep 0.3; fi
            echo go ;;
        end) echo "end $$" >> "$pids.end" ;;
    esac
done
