import { z } from 'zod';

const Evidence = z.object({
  section_label: z.string().min(1).describe('the section the quotes come from, as headed in the paper'),
  alternatives: z
    .array(z.string().min(1))
    .min(1)
    .max(3)
    .describe(
      '2-3 alternative verbatim quotes of 50-200 words, copied character for character from that section',
    ),
});

const Lookup = z.object({
  question: z.string().min(1).describe('asks for one concrete fact stated in the chunk'),
  expected_answer: z.string().min(1),
  evidence: z.array(Evidence).length(1),
});

const Comprehension = z.object({
  question: z.string().min(1).describe('asks for a synthesis of the chunk (method, argument, theme)'),
  expected_answer: z.string().min(1),
  evidence: z.array(Evidence).min(1).max(2),
  rubric: z.array(z.string().min(1)).min(3).max(5),
});

/** What the generator asks the model for, per paper (METHODS §2.2). */
export const GenerationSchema = z.object({
  chunks: z
    .array(
      z.object({
        section_label: z.string().min(1),
        lookup: Lookup,
        comprehension: Comprehension,
      }),
    )
    .min(1)
    .max(5),
  multi_hop: z
    .array(
      z.object({
        question: z
          .string()
          .min(1)
          .describe('needs at least two distant sections: derivation, consistency or comparison'),
        expected_answer: z.string().min(1),
        evidence: z.array(Evidence).min(2).describe('one group per required section'),
        reasoning_chain: z.string().min(1).describe('one sentence'),
        rubric: z.array(z.string().min(1)).min(3).max(5),
      }),
    )
    .max(3),
  adversarial: z
    .array(
      z.object({
        question: z.string().min(1),
        false_premise: z.string().min(1).describe('what is false or out of scope in the question'),
        expected_answer: z.string().min(1).describe('a refusal that names what is wrong'),
        expected_refusal: z.boolean().describe('true unless the paper directly refutes the premise'),
        evidence: z.array(Evidence).max(2),
      }),
    )
    .max(3),
});
export type Generation = z.infer<typeof GenerationSchema>;

/** The model's corrections for quotes that failed verification (the one repair retry). */
export const RepairSchema = z.object({
  fixes: z.array(
    z.object({
      id: z.string().describe('the quote id given in the request'),
      quote: z.string().describe('a corrected quote copied verbatim from the paper, or "" to drop it'),
    }),
  ),
});

export const GENERATION_PROMPT = `You build a citation-grounded question-answering benchmark from one scientific paper. Using only the paper text given, produce:
- chunks: 3-5 chunks from different sections. For each: a "lookup" question (one concrete fact; exactly one evidence group) and a "comprehension" question (a synthesis; one or two evidence groups; a 3-5 item rubric).
- multi_hop: 2-3 questions that need at least two distant sections (a numeric derivation, a consistency check or a comparison), with one evidence group per required section, a one-sentence reasoning chain and a 3-5 item rubric.
- adversarial: 2-3 questions with a false premise or about a topic the paper does not cover; give the false premise, an expected answer that refuses and names what is wrong, expected_refusal (true unless the paper directly refutes the premise) and usually no evidence.
An evidence group is {section_label, alternatives}: 2-3 alternative quotes of 50-200 words, any one of which supports the answer. EVERY quote must be copied character for character from the paper text: no paraphrase, no ellipses, no merged passages. Quotes that are not verbatim are rejected.`;
