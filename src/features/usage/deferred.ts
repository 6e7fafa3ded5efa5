/**
 * What the usage page needs only once its first chart is drawn, in one module loaded then (not in the first
 * bundle): the figures endpoint's schema, with every measure's id, and the glossary's sentences.
 */
export { FIGURES_PATH, figuresAnswerSchema } from '../../api/figures';
export { DEFINITIONS } from '../../lib/definitions';
