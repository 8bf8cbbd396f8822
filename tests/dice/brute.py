"""An independent brute-force reference for exact odds: enumerate every combination of
dice with itertools.product and Fractions. Deliberately naive, and shares no code with the
engine's dynamic programming."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction

Outcomes = dict[int, Fraction]
Faces = list[tuple[int, Fraction]]  # one die's possible faces with their probabilities


def die(sides: int, low: int = 1) -> Faces:
    return [(v, Fraction(1, sides)) for v in range(low, low + sides)]


def reroll_until(faces: Faces, bad: Callable[[int], bool], rounds: int = 60) -> Faces:
    """Rerolling until a good face, enumerated round by round; the mass still bad after
    ``rounds`` rounds is negligible only if we renormalise, so instead we sum the geometric
    series exactly: P(v) = p(v) * sum_k P(bad)^k = p(v) / (1 - P(bad))."""
    p_bad = sum((p for v, p in faces if bad(v)), Fraction(0))
    return [(v, p / (1 - p_bad)) for v, p in faces if not bad(v)]


def reroll_once(faces: Faces, bad: Callable[[int], bool]) -> Faces:
    """First roll; if bad, a second roll whatever it shows."""
    out: dict[int, Fraction] = {}
    for v, p in faces:
        if bad(v):
            for w, q in faces:
                out[w] = out.get(w, Fraction(0)) + p * q
        else:
            out[v] = out.get(v, Fraction(0)) + p
    return sorted(out.items())


def exploding_chains(
    faces: Faces, boom: Callable[[int], bool], depth: int
) -> list[tuple[tuple[int, ...], Fraction]]:
    """Every chain of rolls one exploding die can make, up to ``depth`` extra rolls."""
    chains: list[tuple[tuple[int, ...], Fraction]] = []
    frontier: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    for level in range(depth + 1):
        nxt = []
        for chain, p in frontier:
            for v, q in faces:
                new = (*chain, v)
                if boom(v) and level < depth:
                    nxt.append((new, p * q))
                else:
                    chains.append((new, p * q))
        frontier = nxt
    return chains


def pool(
    dice: Sequence[Faces], f: Callable[[tuple[int, ...]], int]
) -> Outcomes:
    """Distribution of f(faces) over every combination of the dice."""
    out: Outcomes = {}
    for combo in itertools.product(*dice):
        p = Fraction(1)
        for _, q in combo:
            p *= q
        key = f(tuple(v for v, _ in combo))
        out[key] = out.get(key, Fraction(0)) + p
    return {k: v for k, v in out.items() if v}


def chain_pool(
    chains: list[tuple[tuple[int, ...], Fraction]], n: int, f: Callable[[tuple[int, ...]], int]
) -> Outcomes:
    """Distribution of f(all rolls) over n independent exploding dice."""
    out: Outcomes = {}
    for combo in itertools.product(chains, repeat=n):
        p = Fraction(1)
        rolls: list[int] = []
        for chain, q in combo:
            p *= q
            rolls.extend(chain)
        key = f(tuple(rolls))
        out[key] = out.get(key, Fraction(0)) + p
    return out


def combine(a: Outcomes, b: Outcomes, op: Callable[[int, int], int]) -> Outcomes:
    out: Outcomes = {}
    for x, p in a.items():
        for y, q in b.items():
            k = op(x, y)
            out[k] = out.get(k, Fraction(0)) + p * q
    return out


def mixture(parts: list[tuple[Fraction, Outcomes]]) -> Outcomes:
    out: Outcomes = {}
    for w, dist in parts:
        for k, p in dist.items():
            out[k] = out.get(k, Fraction(0)) + w * p
    return out
