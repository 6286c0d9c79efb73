import { CitegeistError, quoteValue } from '../core/index.js';
import { checkCategories, checkOption, type IndexedRatings, indexRatings } from './partial-credit-input.js';
import { facetSums, fitJml, type PcmEstimates } from './partial-credit-jml.js';
import { fitMml } from './partial-credit-mml.js';
import { partialCreditProbabilities } from './partial-credit-probabilities.js';

/** An identifier of an item (e.g. a claim) or a rater (an annotator). */
export type PcmFacetId = string | number;

/** One ordinal rating of an item by a rater; `score` must be one of `categories`. */
export interface PcmRating {
  item: PcmFacetId;
  rater: PcmFacetId;
  score: number;
}

export interface PartialCreditOptions {
  /** The ordered score values, lowest first, e.g. [1, 2, 3, 4, 5] for a 1–5 harm scale. */
  categories: readonly number[];
  /**
   * Estimator. 'mml' (default): marginal maximum likelihood by EM over a normal population of items,
   * consistent for rater severities and thresholds however few ratings an item has; item measures
   * are EAP (posterior means). 'jml': penalised joint maximum likelihood, the classic Facets/Winsteps
   * estimator; biased outward (too-wide thresholds and severities) when items have few ratings.
   */
  method?: 'mml' | 'jml';
  /** Iterations (EM cycles or Newton sweeps) before giving up; default 1000. */
  maxIterations?: number;
  /** Converged when no parameter moves more than this many logits in an iteration; default 1e-5. */
  tolerance?: number;
  /**
   * Ridge (prior precision, 1/σ²) on rater severities and thresholds (and, for JML, item measures):
   * MAP with independent N(0, 1/ridge) priors. Keeps unused categories, raters who only give one
   * category and (JML) items rated all-max or all-min finite. Default 0.01 (σ = 10 logits):
   * negligible for any parameter with data behind it.
   */
  ridge?: number;
}

export interface PcmItemMeasure {
  item: PcmFacetId;
  /** θ in logits; higher = rated higher (e.g. more harmful). */
  measure: number;
  /** MML: posterior SD. JML: model SE 1/√(information + ridge), other parameters held fixed. */
  standardError: number;
  ratings: number;
  /** All ratings in the top ('max') or bottom ('min') category: the measure rests on the prior (MML) or the ridge (JML). */
  extreme: 'max' | 'min' | null;
}

export interface PcmRaterSeverity {
  rater: PcmFacetId;
  /** λ in logits, Σλ = 0; higher = gives lower scores (more severe). */
  severity: number;
  standardError: number;
  ratings: number;
}

export interface PartialCreditFit {
  method: 'mml' | 'jml';
  categories: number[];
  itemMeasures: PcmItemMeasure[];
  raterSeverity: PcmRaterSeverity[];
  /** Step thresholds δ_1..δ_m (m = categories − 1) in logits, Σδ = 0. */
  thresholds: number[];
  thresholdStandardErrors: number[];
  converged: boolean;
  iterations: number;
  /**
   * Log-likelihood without the ridge penalty: MML the marginal one (θ integrated out), JML the joint
   * one at the estimated θ. Comparable only between fits with the same method.
   */
  logLikelihood: number;
  /** MML: the fitted normal distribution of item measures; null for JML. */
  population: { mean: number; sd: number } | null;
}

/**
 * Fits the many-facet partial credit model (Masters 1982; Linacre's facets form)
 *   P(X = k | item i, rater r) ∝ exp(Σ_{j ≤ k} (θ_i − λ_r − δ_j)),  k = 0..m,
 * to ordinal ratings of items by raters. Identification: Σλ = 0 and Σδ = 0, θ free (θ = 0 is the
 * centre of the thresholds for an average rater). Default estimator: marginal ML (EM); `method:
 * 'jml'` for joint ML. See docs/partial-credit-model.md.
 */
export function fitPartialCreditModel(
  ratings: readonly PcmRating[],
  options: PartialCreditOptions,
): PartialCreditFit {
  const { method = 'mml', maxIterations = 1000, tolerance = 1e-5, ridge = 0.01 } = options;
  const categories = checkCategories(options.categories);
  if (method !== 'mml' && method !== 'jml') {
    throw new CitegeistError(
      'INVALID_ARGUMENT',
      `fitPartialCreditModel: option "method" is ${quoteValue(method)}; it must be "mml" or "jml".`,
      'Pass method: "mml" (default) or "jml".',
    );
  }
  checkOption(
    'maxIterations',
    maxIterations,
    Number.isInteger(maxIterations) && maxIterations >= 1,
    'an integer ≥ 1',
  );
  checkOption('tolerance', tolerance, tolerance > 0, 'a positive number');
  checkOption('ridge', ridge, ridge > 0 && Number.isFinite(ridge), 'a positive finite number');
  const data = indexRatings(ratings, categories);
  const settings = { categories: categories.length, maxIterations, tolerance, ridge };
  if (method === 'jml') {
    const fit = fitJml(data, settings);
    return summarise(data, fit, ridge, categories, 'jml', jointLogLikelihood(data, fit), null);
  }
  const fit = fitMml(data, settings);
  return summarise(data, fit, ridge, categories, 'mml', fit.marginalLogLikelihood, {
    mean: fit.populationMean,
    sd: fit.populationSd,
  });
}

type Indexed = IndexedRatings<PcmFacetId>;

function jointLogLikelihood(data: Indexed, s: PcmEstimates): number {
  const p = new Array<number>(s.delta.length + 1);
  let ll = 0;
  for (let o = 0; o < data.score.length; o++) {
    partialCreditProbabilities(s.theta[data.item[o]!]!, s.lambda[data.rater[o]!]!, s.delta, p);
    ll += Math.log(p[data.score[o]!]!);
  }
  return ll;
}

function summarise(
  data: Indexed,
  s: PcmEstimates,
  ridge: number,
  categories: number[],
  method: 'mml' | 'jml',
  logLikelihood: number,
  population: { mean: number; sd: number } | null,
): PartialCreditFit {
  const m = s.delta.length;
  const [, raterInfo] = facetSums(data, s.theta, s.lambda, s.delta, data.rater, s.lambda.length);
  const itemCount = new Array<number>(s.theta.length).fill(0);
  const itemMin = new Array<number>(s.theta.length).fill(m);
  const itemMax = new Array<number>(s.theta.length).fill(0);
  const raterCount = new Array<number>(s.lambda.length).fill(0);
  const stepInfo = new Array<number>(m).fill(ridge);
  const p = new Array<number>(m + 1);
  for (let o = 0; o < data.score.length; o++) {
    const i = data.item[o]!;
    const x = data.score[o]!;
    itemCount[i]! += 1;
    itemMin[i] = Math.min(itemMin[i]!, x);
    itemMax[i] = Math.max(itemMax[i]!, x);
    raterCount[data.rater[o]!]! += 1;
    partialCreditProbabilities(s.theta[i]!, s.lambda[data.rater[o]!]!, s.delta, p);
    let atLeast = 0;
    for (let j = m; j >= 1; j--) {
      atLeast += p[j]!;
      stepInfo[j - 1]! += atLeast * (1 - atLeast);
    }
  }
  const extreme = (i: number) => (itemMin[i] === m ? 'max' : itemMax[i] === 0 ? 'min' : null);
  return {
    method,
    categories,
    itemMeasures: data.items.map((item, i) => ({
      item,
      measure: s.theta[i]!,
      standardError: s.thetaSE[i]!,
      ratings: itemCount[i]!,
      extreme: extreme(i),
    })),
    raterSeverity: data.raters.map((rater, r) => ({
      rater,
      severity: s.lambda[r]!,
      standardError: 1 / Math.sqrt(raterInfo[r]! + ridge),
      ratings: raterCount[r]!,
    })),
    thresholds: [...s.delta],
    thresholdStandardErrors: stepInfo.map((v) => 1 / Math.sqrt(v)),
    converged: s.converged,
    iterations: s.iterations,
    logLikelihood,
    population,
  };
}
