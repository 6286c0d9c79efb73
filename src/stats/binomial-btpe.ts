import type { RandomSource } from './random.js';

/**
 * A Binomial(n, p) variate by BTPE (Kachitvichyanukul & Schmeiser 1988, "Binomial random variate
 * generation", CACM 31(2)): acceptance–rejection from a triangle, two parallelograms and two
 * exponential tails over the pmf, with a squeeze and Stirling-series bounds, so a draw takes a few
 * uniforms whatever n is (the sampler NumPy uses when n·min(p, 1 − p) ≥ 30). Exact up to floating
 * point; meant for n·min(p, 1 − p) ≥ 30 (below that, inversion is cheaper).
 */
export function binomialBtpe(random: RandomSource, n: number, p: number): number {
  const r = Math.min(p, 1 - p);
  const q = 1 - r;
  const fm = n * r + r;
  const m = Math.floor(fm);
  const nrq = n * r * q;
  const p1 = Math.floor(2.195 * Math.sqrt(nrq) - 4.6 * q) + 0.5;
  const xm = m + 0.5;
  const xl = xm - p1;
  const xr = xm + p1;
  const c = 0.134 + 20.5 / (15.3 + m);
  let a = (fm - xl) / (fm - xl * r);
  const laml = a * (1 + a / 2);
  a = (xr - fm) / (xr * q);
  const lamr = a * (1 + a / 2);
  const p2 = p1 * (1 + 2 * c);
  const p3 = p2 + c / laml;
  const p4 = p3 + c / lamr;
  for (;;) {
    const u = random() * p4;
    let v = random();
    let y: number;
    if (u <= p1) {
      // The triangle: accepted at once.
      y = Math.floor(xm - p1 * v + u);
      return p > 0.5 ? n - y : y;
    }
    if (u <= p2) {
      const x = xl + (u - p1) / c;
      v = v * c + 1 - Math.abs(m - x + 0.5) / p1;
      if (v > 1) continue;
      y = Math.floor(x);
    } else if (u <= p3) {
      y = Math.floor(xl + Math.log(v) / laml);
      if (y < 0 || v === 0) continue;
      v = v * (u - p2) * laml;
    } else {
      y = Math.floor(xr - Math.log(v) / lamr);
      if (y > n || v === 0) continue;
      v = v * (u - p3) * lamr;
    }
    if (accept(y, v, n, m, r, q, nrq, xm)) return p > 0.5 ? n - y : y;
  }
}

/** Whether v falls under pmf(y)/pmf(m): exactly by the ratio recurrence near the mode, else by bounds. */
function accept(
  y: number,
  v: number,
  n: number,
  m: number,
  r: number,
  q: number,
  nrq: number,
  xm: number,
): boolean {
  const k = Math.abs(y - m);
  if (k <= 20 || k >= nrq / 2 - 1) {
    const s = r / q;
    const a = s * (n + 1);
    let f = 1;
    if (m < y) for (let i = m + 1; i <= y; i++) f *= a / i - s;
    else if (m > y) for (let i = y + 1; i <= m; i++) f /= a / i - s;
    return v <= f;
  }
  const rho = (k / nrq) * ((k * (k / 3 + 0.625) + 0.16666666666666666) / nrq + 0.5);
  const t = (-k * k) / (2 * nrq);
  const lv = Math.log(v);
  if (lv < t - rho) return true;
  if (lv > t + rho) return false;
  const x1 = y + 1;
  const f1 = m + 1;
  const z = n + 1 - m;
  const w = n - y + 1;
  return (
    lv <=
    xm * Math.log(f1 / x1) +
      (n - m + 0.5) * Math.log(z / w) +
      (y - m) * Math.log((w * r) / (x1 * q)) +
      stirling(f1) +
      stirling(z) +
      stirling(x1) +
      stirling(w)
  );
}

/** The Stirling series correction 1/(12x) − 1/(360x³) + 1/(1260x⁵) − … as BTPE uses it. */
function stirling(x: number): number {
  const x2 = x * x;
  return (13860 - (462 - (132 - (99 - 140 / x2) / x2) / x2) / x2) / x / 166320;
}
