// A question asked before what cannot be undone: the button that asks (id `name`), and the box
// with the question and its two answers (`name-confirm`, `name-question`, `name-yes`, `name-no`).
const $ = (id) => document.getElementById(id);

/**
 * Wires the box of `name`: `question()`, if given, writes its question as it opens; Yes runs
 * `act(close)`, its button disabled meanwhile; No closes it. Focus goes to No as it opens, back to
 * the asking button as it closes. Returns `close`.
 */
export function confirmBox(name, { question, act }) {
  const close = () => {
    $(`${name}-confirm`).hidden = true;
    $(name).hidden = false;
    $(name).focus();
  };
  $(name).addEventListener('click', () => {
    if (question) $(`${name}-question`).textContent = question();
    $(name).hidden = true;
    $(`${name}-confirm`).hidden = false;
    $(`${name}-no`).focus();
  });
  $(`${name}-no`).addEventListener('click', close);
  $(`${name}-yes`).addEventListener('click', async () => {
    $(`${name}-yes`).disabled = true;
    try {
      await act(close);
    } finally {
      $(`${name}-yes`).disabled = false;
    }
  });
  return close;
}
