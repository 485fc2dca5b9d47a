// iban-to-bic ships no types; its datasets are bank code → BIC per country (AT BE DE ES FR LU NL).
declare module 'iban-to-bic/datasets/index.js' {
  const datasets: Record<string, Record<string, string>>;
  export default datasets;
}
