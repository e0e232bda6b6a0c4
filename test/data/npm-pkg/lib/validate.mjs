function validate(id) {
  return typeof id === 'string' && /^[0-9a-f]{8}$/.test(id);
}
export default validate;
